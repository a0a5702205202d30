// Concurrent writers of the MCP sign-in store: several deepcode processes signing in at the same
// moment (real processes, this build's dist/) each keep their tokens — none is overwritten by a
// process that read the file before it was written.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { runChild } from "./child.js";

const STORE = fileURLToPath(new URL("../../dist/mods/mcp/oauth/store.js", import.meta.url));
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A process that waits for `go`, then signs in to `servers` servers one after another. */
const CHILD = `
const [store, home, go, who, servers] = process.argv.slice(1);
const { SignInStore } = await import(store);
const { existsSync, writeFileSync } = await import("node:fs");
writeFileSync(go + "." + who, "");
while (!existsSync(go)) await new Promise((r) => setTimeout(r, 2));
const s = new SignInStore(home);
for (let i = 0; i < Number(servers); i++) {
  const key = SignInStore.key(who + "-" + i, "https://mcp.example.com");
  s.set(key, { ...s.get(key), tokens: { access: "token-" + who + "-" + i } });
}
`;

const run = (args: string[]): ReturnType<typeof runChild> => runChild(CHILD, args);

async function signInAtOnce(processes: number, servers: number): Promise<{ home: string; tokens: string[] }> {
  const home = mkdtempSync(join(tmpdir(), "deepcode-signin-"));
  dirs.push(home);
  const go = join(home, "go");
  const runs = Array.from({ length: processes }, (_, p) => run([STORE, home, go, `p${p}`, String(servers)]));
  const ready = (): boolean => Array.from({ length: processes }, (_, p) => `${go}.p${p}`).every((f) => existsSync(f));
  while (!ready()) await new Promise((r) => setTimeout(r, 10)); // every process loaded and waiting
  writeFileSync(go, "");
  const done = await Promise.all(runs);
  for (const d of done) expect(d, d.stderr).toMatchObject({ code: 0 });
  const all = JSON.parse(readFileSync(join(home, "mcp-oauth.json"), "utf8")) as Record<string, { tokens?: { access: string } }>;
  return { home, tokens: Object.values(all).map((e) => e.tokens?.access ?? "").sort() };
}

const expected = (processes: number, servers: number): string[] =>
  Array.from({ length: processes }, (_, p) => Array.from({ length: servers }, (_, i) => `token-p${p}-${i}`)).flat().sort();

describe("MCP sign-ins in several processes at once", () => {
  it("keeps both processes' tokens when two sign in to their servers at the same moment", async () => {
    expect(existsSync(STORE), "run `npx tsc -p tsconfig.json` first").toBe(true);
    const { tokens } = await signInAtOnce(2, 20);
    expect(tokens).toEqual(expected(2, 20));
  });

  it("keeps every process's tokens when five sign in at the same moment, and leaves no lock or temporary file", async () => {
    const { home, tokens } = await signInAtOnce(5, 10);
    expect(tokens).toEqual(expected(5, 10));
    expect(readdirSync(home).filter((f) => !f.startsWith("go")).sort()).toEqual(["mcp-oauth.json"]);
  });
});
