// The one carve-out from "deepcode's home is secret to tools": the Read tool opens a command's
// whole output that deepcode kept beside the current session (the Bash result names the file)
// without asking. Tested as its attacker would: everything that is not exactly such a file —
// by a link, a rename, another session, another tool, a rule — still asks or is denied.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { linkSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { decide, type DecisionEnv } from "../../src/cli/permissions/index.js";
import { SessionStore } from "../../src/core/session/store.js";
import { makeWorkspace, rulesOf, type Workspace } from "./helpers.js";

let ws: Workspace;
let dc: string;
let store: SessionStore;
let env: DecisionEnv;
const SESSION = "20261201-120000-abcdef";

beforeEach(() => {
  ws = makeWorkspace();
  dc = join(ws.home, ".deepcode");
  mkdirSync(dc);
  writeFileSync(join(dc, "credentials"), "DEEPSEEK_API_KEY=sk-secret\n");
  store = new SessionStore(dc, ws.root);
  store.writer(SESSION).close();
  env = { ...ws.env, deepcodeHome: dc, sessionOutputs: store.outputsDir(SESSION) };
});
afterEach(() => ws.cleanup());

const read = (file_path: string, e: DecisionEnv = env, layers: Parameters<typeof rulesOf>[0] = {}) => decide({ tool: "Read", input: { file_path }, readOnly: true }, rulesOf(layers), e);

describe("the Read tool opens a kept output of the current session without asking", () => {
  it("allows the file keepOutput wrote, and keeps it 0600 in a 0700 folder", async () => {
    const file = store.keepOutput(SESSION, "call_00_abc", "ok 1\nnot ok 2\n");
    expect(read(file).decision).toBe("allow");
    const { statSync } = await import("node:fs");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(store.outputsDir(SESSION)).mode & 0o777).toBe(0o700);
  });

  it("never writes through a name that is taken: a planted symlink gets a file of its own beside it", async () => {
    mkdirSync(store.outputsDir(SESSION), { recursive: true });
    symlinkSync(join(dc, "credentials"), join(store.outputsDir(SESSION), "call_1.txt"));
    const file = store.keepOutput(SESSION, "call_1", "output");
    expect(file).toBe(join(store.outputsDir(SESSION), "call_1-2.txt"));
    const { readFileSync } = await import("node:fs");
    expect(readFileSync(join(dc, "credentials"), "utf8")).toBe("DEEPSEEK_API_KEY=sk-secret\n");
  });

  it("still honours a deny rule on it", () => {
    const file = store.keepOutput(SESSION, "call_2", "x");
    expect(read(file, env, { user: { deny: ["Read(~/.deepcode/**)"] } }).decision).toBe("deny");
  });
});

describe("everything else in deepcode's home still asks", () => {
  it("asks for a symlink in the outputs folder that leads to the credentials", () => {
    mkdirSync(store.outputsDir(SESSION), { recursive: true });
    const link = join(store.outputsDir(SESSION), "call_3.txt");
    symlinkSync(join(dc, "credentials"), link);
    expect(read(link).decision).toBe("ask");
  });

  it("asks for a hard link to the credentials placed there", () => {
    mkdirSync(store.outputsDir(SESSION), { recursive: true });
    const link = join(store.outputsDir(SESSION), "call_4.txt");
    linkSync(join(dc, "credentials"), link);
    expect(read(link).decision).toBe("ask");
  });

  it("asks for the credentials renamed into the outputs folder after the secrets were indexed", async () => {
    const { renameSync } = await import("node:fs");
    // A first look at a hard-linked file builds the index of the secrets' identities.
    linkSync(join(dc, "credentials"), join(ws.root, "innocent.txt"));
    expect(read(join(ws.root, "innocent.txt")).decision).toBe("ask");
    rmSync(join(ws.root, "innocent.txt"));
    mkdirSync(store.outputsDir(SESSION), { recursive: true });
    const renamed = join(store.outputsDir(SESSION), "call_9.txt");
    renameSync(join(dc, "credentials"), renamed);
    expect(read(renamed)).toMatchObject({ decision: "ask", reason: expect.stringMatching(/credentials/) });
  });

  it("asks when the outputs folder itself is a symlink to somewhere else in the home", () => {
    mkdirSync(join(dc, "elsewhere"));
    writeFileSync(join(dc, "elsewhere", "call_5.txt"), "history\n");
    symlinkSync(join(dc, "elsewhere"), store.outputsDir(SESSION));
    expect(read(join(store.outputsDir(SESSION), "call_5.txt")).decision).toBe("ask");
  });

  it("asks for another session's outputs, the session file itself, and paths that climb out", () => {
    const other = store.keepOutput("20261130-090000-fedcba", "call_6", "theirs");
    expect(read(other).decision).toBe("ask");
    expect(read(store.fileOf(SESSION)).decision).toBe("ask");
    expect(read(join(store.outputsDir(SESSION), "..", `${SESSION}.jsonl`)).decision).toBe("ask");
    expect(read(join(store.outputsDir(SESSION), "..", "..", "..", "credentials")).decision).toBe("ask");
  });

  it("asks for a file of another kind of name in the folder, and for a folder of that name", () => {
    mkdirSync(store.outputsDir(SESSION), { recursive: true });
    writeFileSync(join(store.outputsDir(SESSION), "notes.md"), "x");
    expect(read(join(store.outputsDir(SESSION), "notes.md")).decision).toBe("ask");
    mkdirSync(join(store.outputsDir(SESSION), "dir.txt"));
    expect(read(join(store.outputsDir(SESSION), "dir.txt")).decision).toBe("ask");
  });

  it("asks when no session is current, and for other tools than Read", () => {
    const file = store.keepOutput(SESSION, "call_7", "x");
    expect(read(file, { ...env, sessionOutputs: undefined }).decision).toBe("ask");
    expect(decide({ tool: "Grep", input: { pattern: "x", path: file }, readOnly: true }, [], env).decision).toBe("ask");
    expect(decide({ tool: "Bash", input: { command: `cat ${file}` }, readOnly: false }, rulesOf({ user: { allow: ["Bash(cat:*)"] } }), env).decision).toBe("ask");
  });
});
