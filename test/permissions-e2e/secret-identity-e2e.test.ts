// Secrets by what they are, in real processes: a file that is the project's .env or a key in
// ~/.ssh under another name — a hard link, a symlink to one, a hard link in a subfolder — is
// treated as that secret by Read, Glob+Read, Grep, an @-mention and Bash's `cat`. The sandbox is
// off, so only the gate and the tools stand in the way; `-p` has nobody to approve an ask, so the
// read is refused and the model is told why. The secret's text must reach neither the model nor
// the transcript.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { linkSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Simulator } from "../sim/server.mjs";
import { CLI_HOOK_TIMEOUT_MS, bashCall, makeBox, runCli, startSim, toolResults, everythingWritten, writeJson, type Box } from "./helpers.js";

const ENV_SECRET = "sk-live-identity-4711";
const KEY_SECRET = "b3BlbnNzaC1rZXktaWRlbnRpdHk";

let box: Box;
let sim: Simulator | undefined;
let flag: string;
beforeEach(() => {
  box = makeBox();
  writeFileSync(join(box.root, ".env"), `API_TOKEN=${ENV_SECRET}\n`);
  writeFileSync(join(box.root, "app.ts"), "const token = process.env.API_TOKEN;\n");
  mkdirSync(join(box.home, ".ssh"));
  writeFileSync(join(box.home, ".ssh", "id_ed25519"), `-----BEGIN OPENSSH PRIVATE KEY-----\n${KEY_SECRET}\n`);
  // The innocent names.
  linkSync(join(box.root, ".env"), join(box.root, "notes.txt"));
  mkdirSync(join(box.root, "docs", "deep"), { recursive: true });
  linkSync(join(box.root, ".env"), join(box.root, "docs", "deep", "readme.txt"));
  linkSync(join(box.home, ".ssh", "id_ed25519"), join(box.root, "docs", "key-notes.txt"));
  symlinkSync("notes.txt", join(box.root, "pointer.txt")); // a symlink to the hard link
  symlinkSync(join(box.home, ".ssh", "id_ed25519"), join(box.root, "docs", "key-link.txt"));
  flag = join(box.base, "flag-settings.json");
  writeJson(flag, { sandbox: { enabled: false }, permissions: { allow: ["Bash(cat:*)", "Bash(grep:*)"] } });
});
afterEach(async () => {
  await sim?.close();
  sim = undefined;
  box.cleanup();
});

const everything = (s: Simulator): string => everythingWritten(s, box);

const read = (id: string, file_path: string) => ({ id, name: "Read", arguments: { file_path } });
const INNOCENT = ["notes.txt", "docs/deep/readme.txt", "docs/key-notes.txt", "pointer.txt", "docs/key-link.txt"];

describe("a secret under another name is the secret", () => {
  it("is not returned by Read: a hard link, a hard link in a subfolder, a hard link to ~/.ssh/id_ed25519, a symlink to a hard link, a symlink to the key", async () => {
    sim = await startSim({ replies: [{ tool_calls: INNOCENT.map((f, i) => read(`call_${i}`, f)) }, { content: "done" }] });
    const run = await runCli({ box, sim, prompt: "read my notes", args: ["--settings", flag] });
    expect(run.result?.stop_reason, run.stderr).toBe("completed");
    const results = toolResults(sim);
    INNOCENT.forEach((f, i) => expect(results.get(`call_${i}`), f).toMatch(/^Permission denied for Read: /));
    expect(everything(sim)).not.toContain(ENV_SECRET);
    expect(everything(sim)).not.toContain(KEY_SECRET);
  }, CLI_HOOK_TIMEOUT_MS);

  it("is listed by Glob (names are not secret) but not returned by the Read that follows", async () => {
    sim = await startSim({
      replies: [{ tool_calls: [{ id: "call_glob", name: "Glob", arguments: { pattern: "**/*.txt" } }] }, { tool_calls: [read("call_read", "docs/deep/readme.txt")] }, { content: "done" }],
    });
    const run = await runCli({ box, sim, prompt: "find and read the notes", args: ["--settings", flag] });
    expect(run.result?.stop_reason, run.stderr).toBe("completed");
    expect(toolResults(sim).get("call_glob")).toContain("docs/deep/readme.txt");
    expect(toolResults(sim).get("call_read")).toMatch(/^Permission denied for Read: /);
    expect(everything(sim)).not.toContain(ENV_SECRET);
  }, CLI_HOOK_TIMEOUT_MS);

  for (const output_mode of ["content", "files_with_matches", "count"] as const) {
    it(`is left out by Grep (${output_mode}), the hard link in a subfolder included, and Grep says what it left out`, async () => {
      sim = await startSim({ replies: [{ tool_calls: [{ id: "call_grep", name: "Grep", arguments: { pattern: "TOKEN|identity|OPENSSH", output_mode } }] }, { content: "done" }] });
      const run = await runCli({ box, sim, prompt: "find the token", args: ["--settings", flag] });
      expect(run.result?.stop_reason, run.stderr).toBe("completed");
      const result = toolResults(sim).get("call_grep") ?? "";
      expect(result).toContain("app.ts");
      for (const f of ["notes.txt", "docs/deep/readme.txt", "docs/key-notes.txt"]) expect(result).toContain(`${f} (it is the same file as`);
      expect(result).toMatch(/\(Not shown: what matched in 3 files that are secrets under another name/);
      expect(everything(sim)).not.toContain(ENV_SECRET);
      expect(everything(sim)).not.toContain(KEY_SECRET);
    }, CLI_HOOK_TIMEOUT_MS);
  }

  it("is left out by Grep without rg too (the built-in search)", async () => {
    sim = await startSim({ replies: [{ tool_calls: [{ id: "call_grep", name: "Grep", arguments: { pattern: "TOKEN", output_mode: "content" } }] }, { content: "done" }] });
    const run = await runCli({ box, sim, prompt: "find the token", args: ["--settings", flag], env: { PATH: "/nonexistent" } });
    expect(run.result?.stop_reason, run.stderr).toBe("completed");
    const result = toolResults(sim).get("call_grep") ?? "";
    expect(result).toContain("app.ts:1:const token");
    expect(result).toContain("notes.txt (it is the same file as .env");
    expect(everything(sim)).not.toContain(ENV_SECRET);
  }, CLI_HOOK_TIMEOUT_MS);

  it("is not attached by an @-mention", async () => {
    sim = await startSim({ replies: [{ content: "ok" }] });
    const run = await runCli({ box, sim, prompt: "what is in @notes.txt, @docs/key-notes.txt and @app.ts", args: ["--settings", flag] });
    expect(run.result?.stop_reason, run.stderr).toBe("completed");
    const sent = everything(sim);
    expect(sent).toContain("const token = process.env.API_TOKEN;");
    expect(sent).toContain("@notes.txt: not attached: reading it needs approval");
    expect(sent).toContain("@docs/key-notes.txt: not attached");
    expect(sent).not.toContain(ENV_SECRET);
    expect(sent).not.toContain(KEY_SECRET);
  }, CLI_HOOK_TIMEOUT_MS);

  it("is not printed by `cat` under a Bash(cat:*) allow, while an ordinary file is", async () => {
    sim = await startSim({ replies: [{ tool_calls: [bashCall("call_cat", "cat notes.txt"), bashCall("call_key", "cat docs/key-notes.txt"), bashCall("call_app", "cat app.ts")] }, { content: "done" }] });
    const run = await runCli({ box, sim, prompt: "show the files", args: ["--settings", flag] });
    expect(run.result?.stop_reason, run.stderr).toBe("completed");
    const results = toolResults(sim);
    expect(results.get("call_cat")).toMatch(/^Permission denied for Bash: /);
    expect(results.get("call_key")).toMatch(/^Permission denied for Bash: /);
    expect(results.get("call_app")).toContain("const token = process.env.API_TOKEN;");
    expect(everything(sim)).not.toContain(ENV_SECRET);
    expect(everything(sim)).not.toContain(KEY_SECRET);
  }, CLI_HOOK_TIMEOUT_MS);
});
