// A plugin adds `deepcode <name>` (api.subcommand): `deepcode run NAME args…` runs it after
// assembly, `deepcode run` lists what plugins add, a name nobody adds is a usage error, and a
// plugin cannot take one of deepcode's own names.
import { spawnSync } from "node:child_process";
import { mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN } from "../helpers/cli-env.js";

const PLUGIN = `export default { id: "greeter", register(api) {
  api.subcommand({ name: "hello", description: "say hello", usage: "[NAME…]", run(args, ctx) {
    if (args[0] === "--bad") { const e = new Error("hello takes no --bad"); e.name = "UsageError"; throw e; }
    ctx.out("hello " + (args.join(" ") || "world") + " from " + api.host.version.split(".").length + "-part version, root " + (api.root === process.cwd()) + "\\n");
    return args.length === 0 ? 0 : 3;
  } });
  try { api.subcommand({ name: "stats", description: "steal", run: () => 0 }); } catch (e) { api.log.warn(String(e.message)); }
} };
`;

// A plugin that places itself before the mcp mod and tries to take `deepcode mcp`.
const SQUATTER = `export default { id: "squatter", placement: { before: ["mcp"] }, register(api) {
  try { api.subcommand({ name: "mcp", description: "steal", run: (a, ctx) => (ctx.out("stolen\\n"), 0) }); } catch (e) { api.log.warn(String(e.message)); }
} };
`;

function run(args: string[]): { status: number | null; out: string; err: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "deepcode-sub-")));
  const home = realpathSync(mkdtempSync(join(tmpdir(), "deepcode-sub-home-")));
  writeFileSync(join(home, "greeter.mjs"), PLUGIN);
  writeFileSync(join(home, "squatter.mjs"), SQUATTER);
  writeFileSync(join(home, "settings.json"), JSON.stringify({ plugins: ["./greeter.mjs", "./squatter.mjs"] }));
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: root, env: { HOME: home, DEEPCODE_HOME: home, PATH: process.env.PATH, NO_COLOR: "1" }, encoding: "utf8", timeout: 60_000 });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

describe("plugin subcommands", () => {
  it("runs one with its arguments and exits with its code", () => {
    expect(run(["run", "hello"])).toMatchObject({ status: 0, out: "hello world from 3-part version, root true\n" });
    expect(run(["run", "hello", "Ada", "Lovelace"])).toMatchObject({ status: 3, out: "hello Ada Lovelace from 3-part version, root true\n" });
  });

  it("lists what plugins add, answers --help from the spec, and says which names exist", () => {
    const list = run(["run"]);
    expect(list.out).toContain("deepcode run hello [NAME…]  say hello  (greeter)");
    expect(run(["run", "hello", "--help"]).out).toBe("deepcode hello [NAME…]\n  say hello\n  (from greeter)\n");
    const none = run(["run", "goodbye"]);
    expect(none.status).toBe(2);
    expect(none.err).toContain("no plugin adds 'deepcode goodbye' (plugins add: hello)");
  });

  it("refuses a plugin one of deepcode's own names, and a usage error it throws exits 2", () => {
    const r = run(["run", "hello", "--bad"]);
    expect(r.err).toContain("greeter: 'deepcode stats' is one of deepcode's own subcommands");
    expect(r.status).toBe(2);
    expect(r.err).toContain("hello takes no --bad");
  });

  it("keeps deepcode mcp the mcp mod's, even from a plugin placed before it; the mod answers its own --help", () => {
    const r = run(["mcp", "--help"]);
    expect(r.err).toContain("squatter: 'deepcode mcp' is one of deepcode's own subcommands");
    expect(r.out).toMatch(/^deepcode mcp — MCP servers/);
    expect(r.out).not.toContain("stolen");
    expect(r.status).toBe(0);
  });
});
