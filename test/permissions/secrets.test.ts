// Secrets at the gate: the contract's list (src/contract/protected.ts) decides what a Read asks
// for, and a search (Grep, Glob) whose folder holds the home folder's credentials asks too.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { decide, type DecisionEnv } from "../../src/cli/permissions/index.js";
import { secretNameReason } from "../../src/contract/protected.js";
import { makeWorkspace, rulesOf, type Workspace } from "./helpers.js";

let ws: Workspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.cleanup());

const search = (tool: "Grep" | "Glob", input: Record<string, string>, layers: Parameters<typeof rulesOf>[0] = {}, env: DecisionEnv = ws.env) =>
  decide({ tool, input: { pattern: "x", ...input }, readOnly: true }, rulesOf(layers), env);

describe("a search that reaches the home folder's credentials asks", () => {
  beforeEach(() => {
    mkdirSync(join(ws.home, ".ssh"));
    writeFileSync(join(ws.home, ".ssh", "id_ed25519"), "PRIVATE KEY\n");
  });

  it("asks for Grep and Glob over ~ (the reproduction searched ~ for PRIVATE)", () => {
    for (const tool of ["Grep", "Glob"] as const) {
      const d = search(tool, { path: "~", pattern: "PRIVATE" });
      expect(d.decision, tool).toBe("ask");
      expect(d.by).toBe("secrets");
      expect(d.reason).toMatch(/reaches secrets \(~\/\.ssh holds credentials\)/);
    }
  });

  it("asks for a search of / and of the folder that holds the home folder", () => {
    expect(search("Grep", { path: "/" }).decision).toBe("ask");
    expect(search("Grep", { path: ws.base }).decision).toBe("ask");
    expect(search("Glob", { pattern: `${ws.home}/**` }).decision).toBe("ask");
  });

  it("does not ask for a search of the project, nor of a home folder without credentials in it", () => {
    expect(search("Grep", {}).decision).toBe("allow");
    expect(search("Grep", { path: "src" }).decision).toBe("allow");
    const bare = { ...ws.env, home: join(ws.base, "empty-home") };
    mkdirSync(bare.home);
    expect(search("Grep", { path: bare.home }, {}, bare).decision).toBe("allow");
  });

  it("asks when deepcode's home (DEEPCODE_HOME, elsewhere) lies below the search folder", () => {
    const dc = join(ws.base, "dc");
    mkdirSync(dc);
    writeFileSync(join(dc, "credentials"), "DEEPSEEK_API_KEY=x\n");
    const env = { ...ws.env, deepcodeHome: dc, home: join(ws.base, "empty-home") };
    mkdirSync(env.home);
    const d = search("Grep", { path: ws.base }, {}, env);
    expect(d.decision).toBe("ask");
    expect(d.reason).toMatch(/is deepcode's home/);
  });

  it("lets an allow rule naming the folder lift it, but never a deny", () => {
    expect(search("Grep", { path: "~" }, { user: { allow: ["Read(~/**)"] } }).decision).toBe("allow");
    expect(search("Grep", { path: "~" }, { user: { allow: ["Grep"] } }).decision).toBe("ask");
    expect(search("Grep", { path: "~" }, { user: { allow: ["Read(~/**)"] }, project: { deny: ["Read(~/**)"] } }).decision).toBe("deny");
  });
});

describe("the secrets list is the contract's", () => {
  it("treats <DEEPCODE_HOME>/credentials as a secret when the env names deepcode's home", () => {
    const dc = join(ws.base, "dc");
    const d = decide({ tool: "Read", input: { file_path: join(dc, "credentials") }, readOnly: true }, [], { ...ws.env, deepcodeHome: dc });
    expect(d.decision).toBe("ask");
    expect(d.reason).toMatch(/is deepcode's home/);
  });

  it("counts every .env variant but the committed templates, and private keys but not their .pub halves", () => {
    for (const n of [".env", ".env.local", ".env.production.local", ".envrc", "id_rsa", "id_ed25519_sk", "id_ecdsa.old", "server.PEM", "tls.key", "store.p12"]) expect(secretNameReason(n), n).not.toBeNull();
    for (const n of [".env.example", ".env.sample", ".env.template", "id_rsa.pub", "id_ed25519_sk.pub", "env.ts", "keys.json", "monkey.ts"]) expect(secretNameReason(n), n).toBeNull();
  });

  it("asks before a Read of .envrc (direnv files hold exported secrets)", () => {
    expect(decide({ tool: "Read", input: { file_path: ".envrc" }, readOnly: true }, [], ws.env).decision).toBe("ask");
  });
});
