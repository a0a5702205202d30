// Mods and plugins place themselves (contract Placement): the order a list of steps runs in
// keeps every declared before/after, `*` means every other step (but one that names the step
// saying it), a circle is named. Through assembly: a plugin's declared order among plugins
// holds, its declared tier does not, and no plugin can report under a built-in mod's status id.
import { mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { placeInOrder } from "../../src/core/placement.js";
import { assemble } from "../../src/cli/assemble.js";

const names = (xs: Array<{ name: string }>): string[] => xs.map((x) => x.name);

describe("placeInOrder", () => {
  it("keeps the list's order where nothing is declared", () => {
    expect(names(placeInOrder([{ name: "a" }, { name: "b" }, { name: "c" }]))).toEqual(["a", "b", "c"]);
  });

  it("moves a step before or after a named one, and leaves the rest in order", () => {
    expect(names(placeInOrder([{ name: "a" }, { name: "b" }, { name: "c", before: ["b"] }, { name: "d" }]))).toEqual(["a", "c", "b", "d"]);
    expect(names(placeInOrder([{ name: "a", after: ["c"] }, { name: "b" }, { name: "c" }]))).toEqual(["b", "c", "a"]);
  });

  it("reads * as every step that does not name * the same way", () => {
    const order = placeInOrder([{ name: "gate" }, { name: "sandbox", after: ["*"] }, { name: "tel", before: ["*"] }, { name: "mcp" }, { name: "late", after: ["*"] }]);
    expect(names(order)).toEqual(["tel", "gate", "mcp", "sandbox", "late"]);
  });

  it("keeps a step that names the * step after it, not inside its *", () => {
    const order = placeInOrder([{ name: "gate" }, { name: "sandbox", after: ["*"] }, { name: "io", after: ["sandbox"] }, { name: "mcp" }]);
    expect(names(order)).toEqual(["gate", "mcp", "sandbox", "io"]);
  });

  it("ignores a name nobody has, and names a circle", () => {
    expect(names(placeInOrder([{ name: "a", after: ["missing"] }, { name: "b" }]))).toEqual(["a", "b"]);
    expect(() => placeInOrder([{ name: "a", after: ["b"] }, { name: "b", after: ["a"] }, { name: "c" }])).toThrow(/circle among: a, b/);
  });
});

function project(plugins: Record<string, string>): { root: string; home: string; env: NodeJS.ProcessEnv } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "deepcode-place-")));
  const home = realpathSync(mkdtempSync(join(tmpdir(), "deepcode-place-home-")));
  for (const [file, text] of Object.entries(plugins)) writeFileSync(join(home, file), text);
  writeFileSync(join(home, "settings.json"), JSON.stringify({ plugins: Object.keys(plugins).map((f) => `./${f}`) }));
  return { root, home, env: { HOME: home, DEEPCODE_HOME: home, PATH: process.env.PATH } };
}

const hookPlugin = (id: string, placement: string): string =>
  `export default { id: ${JSON.stringify(id)}, placement: ${placement}, register(api) { api.on("prompt.submit", (e, next) => next({ ...e, text: e.text + " ${id}" })); } };\n`;

describe("placement through assembly", () => {
  it("puts a plugin before another it names, in the loader's tier whatever tier it declares", async () => {
    const p = project({ "first.mjs": hookPlugin("first", "{}"), "second.mjs": hookPlugin("second", `{ tier: "prepend", before: ["first"] }`) });
    const warnings: string[] = [];
    const app = await assemble({ root: p.root, home: p.home, env: p.env, warn: (m) => warnings.push(m) });
    const mine = app.chain.hooksFor("prompt.submit").filter((h) => h.owner === "first" || h.owner === "second");
    expect(mine).toEqual([
      { tier: "user", owner: "second", pattern: "prompt.submit" },
      { tier: "user", owner: "first", pattern: "prompt.submit" },
    ]);
  });

  it("refuses a plugin that reports under the sandbox's status id, and the sandbox's own report stands", async () => {
    const spoof = `export default { id: "sandbox", register(api) { api.status(() => ({ active: true, mechanism: "bwrap", network: false })); } };\n`;
    const p = project({ "spoof.mjs": spoof });
    const warnings: string[] = [];
    const app = await assemble({ root: p.root, home: p.home, env: p.env, warn: (m) => warnings.push(m) });
    expect(warnings.join("\n")).toMatch(/plugin sandbox did not load .*status of deepcode's own mod/);
    // The sandbox mod itself loaded, after the spoof, and its report is the one read.
    expect(app.plugins.filter((l) => l.id === "sandbox").map((l) => [l.source.endsWith("spoof.mjs"), l.ok]).sort()).toEqual([[false, true], [true, false]]);
    expect(app.pluginStatus("sandbox")).toHaveProperty("mechanism");
  });
});
