// Concurrent writers of the files two deepcode processes share: the trust store, the MCP
// approvals, a settings file (`plugin enable`), your MCP file (`mcp add`), the credentials file,
// the plugin lock and the prompt history. Real processes (this build's dist/) change them at
// the same moment; each keeps every process's change.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { runChild } from "./child.js";

const DIST = fileURLToPath(new URL("../../dist/", import.meta.url));
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A process that waits for `go`, then makes `n` changes of `kind`, each naming itself. */
const CHILD = `
const [dist, kind, home, go, who, n] = process.argv.slice(1);
const { existsSync, writeFileSync } = await import("node:fs");
const at = (p) => import(dist + p);
const { TrustStore } = await at("src/cli/trust/store.js");
const { ApprovalStore } = await at("mods/mcp/approvals.js");
const { setEnabled } = await at("mods/marketplace/scope.js");
const { mcpSubcommand } = await at("mods/mcp/command.js");
const { saveApiKey } = await at("src/cli/credentials.js");
const { changeLock } = await at("mods/marketplace/store.js");
const { History } = await at("src/cli/repl/history.js");
const ctx = { out() {}, err(s) { process.stderr.write(s); }, signal: new AbortController().signal, confirm: async () => false };
writeFileSync(go + "." + who, "");
while (!existsSync(go)) await new Promise((r) => setTimeout(r, 2));
for (let i = 0; i < Number(n); i++) {
  const name = who + "-" + i;
  if (kind === "trust") new TrustStore(home).set("/projects/" + name, true, "d");
  if (kind === "approvals") new ApprovalStore(home, home).set(name, "d", true);
  if (kind === "settings") setEnabled(home + "/settings.json", name + "@m", true);
  if (kind === "mcp") await mcpSubcommand({ root: home, home, viaMod: async () => 0 }).run(["add", "--scope", "user", name, "--", "node"], ctx);
  if (kind === "credentials") saveApiKey(home, "sk-" + name, "KEY_" + name.replace("-", "_").toUpperCase());
  if (kind === "lock") changeLock(home, name + "@m", { id: name + "@m", files: {} });
  if (kind === "history") { const h = new History(home, "/project"); h.add("first prompt"); h.add(name); h.add("first prompt"); }
}
`;

const run = (args: string[]): ReturnType<typeof runChild> => runChild(CHILD, args);

/** `processes` processes make `n` changes of `kind` each at once; returns their home. */
async function atOnce(kind: string, processes: number, n: number): Promise<string> {
  expect(existsSync(join(DIST, "src/cli/trust/store.js")), "run `npx tsc -p tsconfig.json` first").toBe(true);
  const home = mkdtempSync(join(tmpdir(), "deepcode-race-"));
  dirs.push(home);
  const go = join(home, "go");
  const runs = Array.from({ length: processes }, (_, p) => run([DIST, kind, home, go, `p${p}`, String(n)]));
  const ready = (): boolean => Array.from({ length: processes }, (_, p) => `${go}.p${p}`).every((f) => existsSync(f));
  while (!ready()) await new Promise((r) => setTimeout(r, 10)); // every process loaded and waiting
  writeFileSync(go, "");
  for (const d of await Promise.all(runs)) expect(d, d.stderr).toMatchObject({ code: 0 });
  const litter = readdirSync(home, { recursive: true }).map(String).filter((f) => f.endsWith(".lock") || f.includes(".tmp"));
  expect(litter).toEqual([]);
  return home;
}

const names = (processes: number, n: number): string[] => Array.from({ length: processes }, (_, p) => Array.from({ length: n }, (_, i) => `p${p}-${i}`)).flat().sort();
const json = (file: string): Record<string, unknown> => JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
const keys = (o: unknown): string[] => Object.keys(o as object).sort();

describe("files two deepcode processes change at the same moment", () => {
  it("keeps every project each process trusted", async () => {
    const home = await atOnce("trust", 3, 8);
    expect(keys(json(join(home, "trust.json")).projects)).toEqual(names(3, 8).map((n) => `/projects/${n}`));
  });

  it("keeps every MCP server each process approved", async () => {
    const home = await atOnce("approvals", 3, 8);
    const projects = json(join(home, "mcp-approvals.json")).projects as Record<string, unknown>;
    expect(keys(Object.values(projects)[0])).toEqual(names(3, 8));
  });

  it("keeps every plugin each process enabled in one settings file", async () => {
    const home = await atOnce("settings", 3, 8);
    expect(keys(json(join(home, "settings.json")).enabledPlugins)).toEqual(names(3, 8).map((n) => `${n}@m`));
  });

  it("keeps every MCP server each process added to your MCP file", async () => {
    const home = await atOnce("mcp", 3, 5);
    expect(keys(json(join(home, "mcp.json")).mcpServers)).toEqual(names(3, 5));
  });

  it("keeps every key each process saved in the credentials file", async () => {
    const home = await atOnce("credentials", 3, 5);
    const saved = readFileSync(join(home, "credentials"), "utf8").trim().split("\n").map((l) => l.slice(l.indexOf("=sk-") + 4)).sort();
    expect(saved).toEqual(names(3, 5));
  });

  it("keeps every plugin each process installed in the plugin lock", async () => {
    const home = await atOnce("lock", 3, 8);
    const lock = readdirSync(home, { recursive: true }).map(String).find((f) => f.endsWith(".json") && f.includes("plugins"));
    expect(keys(json(join(home, lock!)).plugins)).toEqual(names(3, 8).map((n) => `${n}@m`));
  });

  it("keeps every prompt each REPL of the same project typed in its history", async () => {
    const home = await atOnce("history", 3, 6);
    const file = readdirSync(join(home, "history"))[0];
    const prompts = readFileSync(join(home, "history", file), "utf8").trim().split("\n").map((l) => JSON.parse(l) as string);
    expect(prompts.filter((p) => p !== "first prompt").sort()).toEqual(names(3, 6));
  });
});
