// The shell attacks of issue 11, each in a real `deepcode -p` whose scripted model makes the
// Bash call, with a `--settings` file and nobody to answer prompts. The sandbox is off, so only
// the gate stands in the way; each test looks at the disk (and at what the model was sent), not
// at the decision. Every case here ran its payload on the main branch before this change.
//
// Escapes point at the test's own folders: `outside` next to the project, a loopback listener
// for the network, HOME a temporary folder.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Simulator } from "../sim/server.mjs";
import { CLI_HOOK_TIMEOUT_MS, bashCall, listen, makeBox, runCli, snapshot, startSim, toolResults, writeJson, type Box, type CliRun, type Listener } from "./helpers.js";

const SECRET = "sk-live-shell-e2e-4242";
const ASKED = /^Permission denied for Bash: deepcode runs non-interactively/;

let box: Box;
let sim: Simulator | undefined;
let listener: Listener;
beforeAll(async () => {
  listener = await listen();
});
afterAll(async () => {
  await listener.close();
});
afterEach(async () => {
  await sim?.close();
  sim = undefined;
  box?.cleanup();
});

/** Runs the calls as one model turn under `permissions` (a --settings file) and returns the run and the tool results. */
async function attempt(permissions: object, calls: Record<string, string>, plant: (b: Box) => void = () => {}): Promise<{ run: CliRun; results: Map<string, string>; sent: string }> {
  box = makeBox();
  writeFileSync(join(box.root, "victim.txt"), "keep me\n");
  writeFileSync(join(box.root, ".env"), `API_TOKEN=${SECRET}\n`);
  writeFileSync(join(box.root, "README.md"), "# readme\n");
  plant(box);
  const settings = join(box.base, "attack-settings.json");
  writeJson(settings, { permissions, sandbox: { enabled: false } });
  sim = await startSim({ replies: [{ content: "Trying.", tool_calls: Object.entries(calls).map(([id, cmd]) => bashCall(id, cmd)) }, { content: "done" }] });
  const run = await runCli({ box, sim, prompt: "go", args: ["--settings", settings] });
  expect(run.result?.stop_reason, run.stderr).toBe("completed");
  const sent = sim.requests.map((r) => JSON.stringify(r.json ?? null)).join("\n");
  return { run, results: toolResults(sim), sent };
}

describe("substitutions bash evaluates inside a word (an array subscript of test -v) do not run", () => {
  for (const [name, permissions] of [
    ["with empty settings", {}],
    ["with rm, curl, touch and git push denied", { deny: ["Bash(rm:*)", "Bash(curl:*)", "Bash(touch:*)", "Bash(git push:*)"] }],
  ] as const) {
    it(`${name}: test -v, [ -v ] and [[ -v ]] with $(…) in the subscript ask, and the victim stays (the reproduction)`, async () => {
      const { results } = await attempt(permissions, {
        call_test: "test -v 'a[$(rm victim.txt)]'",
        call_bracket: "[ -v 'x[$(cat .env > copy)]' ]",
        call_dbl: `[[ -v 'a[$(curl -s http://127.0.0.1:${listener.port}/x)]' ]]`,
        call_touch: "[[ -v 'a[$(touch touched)]' ]]",
      });
      expect(existsSync(join(box.root, "victim.txt"))).toBe(true);
      expect(existsSync(join(box.root, "copy"))).toBe(false);
      expect(existsSync(join(box.root, "touched"))).toBe(false);
      expect(listener.connections).toBe(0);
      for (const id of ["call_test", "call_bracket", "call_dbl", "call_touch"]) expect(results.get(id), id).toMatch(/^Permission denied for Bash: /);
      expect(results.get("call_test")).toMatch(/array subscript/);
    }, CLI_HOOK_TIMEOUT_MS);
  }
});

describe("a redirection under a read-only allow (Bash(echo:*), Bash(ls:*)) is a write that asks", () => {
  it("creates and changes no file through >, >>, 2>, >|, &>>, <>, 3> or {fd}>, and tells the model the redirection is why", async () => {
    const { results } = await attempt(
      { allow: ["Bash(echo:*)", "Bash(ls:*)"] },
      {
        call_gt: "echo a > X1",
        call_append: "echo a >> X2",
        call_err: "ls 2>X3",
        call_clobber: "echo a >| X4",
        call_all: "ls &>>X5",
        call_rw: "ls <>X6",
        call_fd3: "ls 3>X7",
        call_named: "ls {fd}>X8",
        call_free: "echo fine > /dev/null 2>&1",
      },
      (b) => writeFileSync(join(b.root, "X2"), "unchanged\n"),
    );
    for (const f of ["X1", "X3", "X4", "X5", "X6", "X7", "X8"]) expect(existsSync(join(box.root, f)), f).toBe(false);
    expect(readFileSync(join(box.root, "X2"), "utf8")).toBe("unchanged\n");
    for (const id of ["call_gt", "call_append", "call_err", "call_clobber", "call_all", "call_rw", "call_fd3", "call_named"]) {
      expect(results.get(id), id).toMatch(ASKED);
      expect(results.get(id), id).toMatch(/through the redirection '[0-9{}a-z]*[<>&|]+'/);
    }
    expect(results.get("call_free")).not.toMatch(/Permission denied/);
  }, CLI_HOOK_TIMEOUT_MS);

  it("writes once a Write rule names the file (the redirection needs what a Write of it needs)", async () => {
    const { results } = await attempt({ allow: ["Bash(echo:*)", "Write(ok.txt)"] }, { call_ok: "echo a > ok.txt", call_other: "echo a > other.txt" });
    expect(readFileSync(join(box.root, "ok.txt"), "utf8")).toBe("a\n");
    expect(existsSync(join(box.root, "other.txt"))).toBe(false);
    expect(results.get("call_other")).toMatch(ASKED);
  }, CLI_HOOK_TIMEOUT_MS);
});

describe("an allowed test runner's code-loading options ask (Bash(npm test:*), touch denied)", () => {
  const plantPackage = (b: Box): void => {
    writeJson(join(b.root, "package.json"), { name: "p", version: "1.0.0", scripts: { test: "node -e \"console.log('the tests ran')\"" } });
    writeFileSync(join(b.root, "evil.sh"), "#!/bin/sh\necho pwned > pwned-shell\n");
    chmodSync(join(b.root, "evil.sh"), 0o755);
    writeJson(join(b.root, "other", "package.json"), { name: "o", version: "1.0.0", scripts: { test: "node -e \"require('fs').writeFileSync('../pwned-prefix','x')\"" } });
  };

  it("runs none of --node-options, --script-shell, --prefix or a rewritten package.json, and still runs npm test itself", async () => {
    const { results } = await attempt(
      { allow: ["Bash(npm test:*)", "Bash(echo:*)"], deny: ["Bash(touch:*)"] },
      {
        call_node_options: `npm test --node-options="--import=data:text/javascript,import{writeFileSync}from'fs';writeFileSync('pwned-import','x')"`,
        call_script_shell: "npm test --script-shell=./evil.sh",
        call_prefix: "npm test --prefix other",
        call_plain: "npm test",
        // The project's files decide what npm test runs; rewriting one is a write, which asks.
        call_rewrite: `echo '{"scripts":{"test":"echo x > pwned-rewrite"}}' > package.json && npm test`,
      },
      plantPackage,
    );
    for (const f of ["pwned-import", "pwned-shell", "pwned-prefix", "pwned-rewrite"]) expect(existsSync(join(box.root, f)), f).toBe(false);
    expect(readFileSync(join(box.root, "package.json"), "utf8")).toContain("the tests ran");
    expect(results.get("call_rewrite")).toMatch(/through the redirection '>'/);
    expect(results.get("call_node_options")).toMatch(/--node-options/);
    expect(results.get("call_script_shell")).toMatch(/--script-shell/);
    expect(results.get("call_prefix")).toMatch(/--prefix/);
    expect(results.get("call_plain")).toContain("the tests ran");
  }, CLI_HOOK_TIMEOUT_MS);
});

describe("file commands whose source is a secret read it (allowed ln, mv, grep, tar)", () => {
  it("neither links nor moves .env under an innocent name, and a recursive grep or tar of the project does not print it", async () => {
    const { results, sent } = await attempt(
      { allow: ["Bash(ln:*)", "Bash(mv:*)", "Bash(grep:*)", "Bash(tar:*)", "Bash(cat:*)"] },
      { call_ln: "ln .env notes.txt", call_mv: "mv .env moved.txt", call_grep: "grep -r sk-live .", call_tar: "tar -cf - .", call_cat: "cat README.md" },
    );
    expect(existsSync(join(box.root, "notes.txt"))).toBe(false);
    expect(existsSync(join(box.root, "moved.txt"))).toBe(false);
    expect(existsSync(join(box.root, ".env"))).toBe(true);
    for (const id of ["call_ln", "call_mv", "call_grep", "call_tar"]) expect(results.get(id), id).toMatch(ASKED);
    expect(results.get("call_cat")).toContain("# readme");
    expect(sent).not.toContain(SECRET);
  }, CLI_HOOK_TIMEOUT_MS);
});

describe("the fence holds without the sandbox against links made on the same line and hard links", () => {
  it("does not write through a symlink created earlier on the line, nor through a hard link to a file outside", async () => {
    let before: Record<string, string> = {};
    const { results } = await attempt(
      { allow: ["Bash(ln:*)", "Bash(echo:*)", "Write(**)"] },
      {
        call_outside: "ln -s ../outside d && echo x > d/f",
        call_hooks: "ln -s .git/hooks hk && echo 'touch pwned' > hk/pre-commit",
        call_hard: "echo overwritten > shared.txt",
      },
      (b) => {
        mkdirSync(join(b.root, ".git", "hooks"), { recursive: true });
        writeFileSync(join(b.outside, "target"), "original\n");
        linkSync(join(b.outside, "target"), join(b.root, "shared.txt"));
        before = snapshot(b.outside);
      },
    );
    expect(snapshot(box.outside)).toEqual(before);
    expect(existsSync(join(box.root, ".git", "hooks", "pre-commit"))).toBe(false);
    expect(results.get("call_outside")).toMatch(/create or move a link first/);
    expect(results.get("call_hard")).toMatch(/hard link/);
  }, CLI_HOOK_TIMEOUT_MS);
});
