import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { decide, type ToolCall } from "../../src/cli/permissions/index.js";
import { makeWorkspace, rulesOf, type Workspace } from "./helpers.js";

let ws: Workspace;
beforeAll(() => {
  ws = makeWorkspace();
  mkdirSync(join(ws.home, ".ssh"));
  writeFileSync(join(ws.home, ".ssh", "id_ed25519"), "secret");
});
afterAll(() => ws.cleanup());

describe("with no rules, the defaults apply", () => {
  const cases: Array<[string, ToolCall, "allow" | "ask" | "deny"]> = [
    ["a read-only tool is allowed", { tool: "Read", input: { file_path: "src/a.ts" }, readOnly: true }, "allow"],
    ["Grep is allowed", { tool: "Grep", input: { pattern: "x" }, readOnly: true }, "allow"],
    ["Glob is allowed", { tool: "Glob", input: { pattern: "**/*.ts" }, readOnly: true }, "allow"],
    ["a read-only plugin tool is allowed", { tool: "Lookup", input: {}, readOnly: true }, "allow"],
    ["Write asks", { tool: "Write", input: { file_path: "src/a.ts", content: "x" }, readOnly: false }, "ask"],
    ["Edit asks", { tool: "Edit", input: { file_path: "src/a.ts", old_string: "a", new_string: "b" }, readOnly: false }, "ask"],
    ["Bash asks", { tool: "Bash", input: { command: "npm test" }, readOnly: false }, "ask"],
    ["a mutating plugin tool asks", { tool: "Deploy", input: {}, readOnly: false }, "ask"],
    ["a mutating MCP tool asks", { tool: "mcp__github__create_issue", input: {}, readOnly: false }, "ask"],
    ["an unknown tool is denied", { tool: "Nope", input: {}, readOnly: null }, "deny"],
  ];
  for (const [name, call, expected] of cases) {
    it(name, () => {
      expect(decide(call, [], ws.env).decision).toBe(expected);
    });
  }

  it("denies an unknown tool even if a rule allows its name", () => {
    expect(decide({ tool: "Nope", input: {}, readOnly: null }, rulesOf({ user: { allow: ["Nope"] } }), ws.env).decision).toBe("deny");
  });
});

describe("reads of well-known secrets ask even though reading is allowed", () => {
  const read = (file_path: string, layers: Parameters<typeof rulesOf>[0] = {}) =>
    decide({ tool: "Read", input: { file_path }, readOnly: true }, rulesOf(layers), ws.env);

  const secrets = ["~/.ssh/id_ed25519", "~/.ssh/config", "~/.aws/credentials", "~/.config/gcloud/credentials.db", ".env", "config/.env.local", ".env.production", "deploy/id_rsa", "certs/server.pem", "certs/server.key", "~/.netrc", "~/.deepcode/credentials"];
  for (const path of secrets) {
    it(`asks before reading ${path}`, () => {
      const d = read(path);
      expect(d.decision).toBe("ask");
      expect(d.by).toBe("secrets");
    });
  }

  for (const path of [".env.example", ".env.sample", "src/env.ts", "keys/id_rsa.pub", "keys.json"]) {
    it(`reads ${path} without asking`, () => {
      expect(read(path).decision).toBe("allow");
    });
  }

  it("asks before a search inside ~/.ssh", () => {
    expect(decide({ tool: "Grep", input: { pattern: "x", path: "~/.ssh" }, readOnly: true }, [], ws.env).decision).toBe("ask");
  });

  it("follows a symlink in the workspace that points at a secret", () => {
    symlinkSync(join(ws.home, ".ssh", "id_ed25519"), join(ws.root, "innocent.txt"));
    expect(read("innocent.txt").decision).toBe("ask");
  });

  it("lets an allow rule naming the path make it allow", () => {
    expect(read(".env", { local: { allow: ["Read(.env)"] } }).decision).toBe("allow");
    expect(read("~/.ssh/config", { user: { allow: ["Read(~/.ssh/config)"] } }).decision).toBe("allow");
  });

  it("does not let a bare Read allow lift it", () => {
    expect(read(".env", { user: { allow: ["Read"] } }).decision).toBe("ask");
  });

  it("keeps a deny a deny", () => {
    expect(read(".env", { user: { allow: ["Read(.env)"] }, project: { deny: ["Read(.env)"] } }).decision).toBe("deny");
  });
});
