// Issue 21's leaks through the shell reader, each in a real `deepcode -p` whose scripted model
// makes the Bash calls, with a `--settings` file, the sandbox off (only the reader stands in the
// way) and nobody to answer prompts: long options abbreviated as the programs accept them, a file
// the repository ships named like an option, output operands, wrappers that run their arguments
// under a bare `Bash` allow, and a copy that plants protected paths. Each test looks at the disk,
// not at the decision; each of these ran its payload before the reader learned the family.
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Simulator } from "../sim/server.mjs";
import { CLI_HOOK_TIMEOUT_MS, bashCall, makeBox, runCli, startSim, toolResults, writeJson, type Box } from "./helpers.js";

const ASKED = /^Permission denied for Bash: /;

let box: Box;
let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
  box?.cleanup();
});

/** A project whose `npm test` is harmless and whose `lib/evil.js` leaves a mark when loaded. */
function plant(b: Box): void {
  writeFileSync(join(b.root, "victim.txt"), "keep me\n");
  writeFileSync(join(b.root, "README.md"), "# readme\n");
  writeJson(join(b.root, "package.json"), { name: "p", version: "1.0.0", scripts: { test: "node -e \"console.log('tests ok')\"" } });
  mkdirSync(join(b.root, "lib"));
  writeFileSync(join(b.root, "lib", "evil.js"), "require('fs').writeFileSync(require('path').join(process.cwd(), 'PWNED'), 'x');\n");
  writeFileSync(join(b.root, "evil.sh"), "#!/bin/sh\ntouch PWNED\n", { mode: 0o755 });
}

async function attempt(permissions: object, calls: Record<string, string>, extra: (b: Box) => void = () => {}, args: string[] = []): Promise<Map<string, string>> {
  box = makeBox();
  plant(box);
  extra(box);
  const settings = join(box.base, "attack-settings.json");
  writeJson(settings, { permissions, sandbox: { enabled: false } });
  sim = await startSim({ replies: [{ content: "Trying.", tool_calls: Object.entries(calls).map(([id, cmd]) => bashCall(id, cmd)) }, { content: "done" }] });
  const run = await runCli({ box, sim, prompt: "go", args: ["--settings", settings, ...args] });
  expect(run.result?.stop_reason, run.stderr).toBe("completed");
  return toolResults(sim);
}

describe("under Bash(npm test:*), npm's abbreviations of code-running options are not run", () => {
  it("npm test --node-opt=, -node-opt=, --script-sh=, --userc= and --globalc= ask, and nothing loads lib/evil.js; plain npm test runs", async () => {
    const results = await attempt(
      { allow: ["Bash(npm test:*)"] },
      {
        call_node_opt: "npm test --node-opt=--require=./lib/evil.js",
        call_single_dash: "npm test -node-opt=--require=./lib/evil.js",
        call_script_shell: "npm test --script-sh=./evil.sh",
        call_userconfig: "npm test --userc=evil.npmrc",
        call_globalconfig: "npm test --globalc=evil.npmrc",
        call_plain: "npm test",
      },
      (b) => writeFileSync(join(b.root, "evil.npmrc"), "node-options=--require=./lib/evil.js\n"),
    );
    expect(existsSync(join(box.root, "PWNED"))).toBe(false);
    for (const id of ["call_node_opt", "call_single_dash", "call_script_shell", "call_userconfig", "call_globalconfig"]) expect(results.get(id), id).toMatch(ASKED);
    expect(results.get("call_node_opt")).toMatch(/--node-options/);
    expect(results.get("call_plain")).toMatch(/tests ok/);
  }, CLI_HOOK_TIMEOUT_MS);
});

describe("abbreviations write nothing while planning", () => {
  it("plan mode refuses sed --in-pl and sort --outp=, and victim.txt keeps its text", async () => {
    const results = await attempt(
      { allow: ["Bash(sed:*)", "Bash(sort:*)"] },
      { call_sed: "sed --in-pl 's/keep/lost/' victim.txt", call_sort: "sort --outp=victim.txt README.md" },
      () => {},
      ["--permission-mode", "plan"],
    );
    expect(readFileSync(join(box.root, "victim.txt"), "utf8")).toBe("keep me\n");
    for (const id of ["call_sed", "call_sort"]) expect(results.get(id), id).toMatch(/denied|plan/i);
  }, CLI_HOOK_TIMEOUT_MS);
});

describe("a file named like an option, matched by a glob, is judged as the option it becomes", () => {
  it("under Bash(sort:*) and Bash(grep:*), sort * with a file named --output=made.txt and grep -n x * with one named -r ask, and nothing is written", async () => {
    const results = await attempt({ allow: ["Bash(sort:*)", "Bash(grep:*)"] }, { call_sort: "sort *", call_grep: "grep -n readme *" }, (b) => {
      writeFileSync(join(b.root, "--output=made.txt"), "x\n");
      writeFileSync(join(b.root, "-r"), "x\n");
    });
    expect(existsSync(join(box.root, "made.txt"))).toBe(false);
    expect(results.get("call_sort")).toMatch(ASKED);
    expect(results.get("call_sort")).toMatch(/named like options/);
    expect(results.get("call_grep")).toMatch(ASKED);
  }, CLI_HOOK_TIMEOUT_MS);
});

describe("output operands are writes: under Bash(uniq:*) and Bash(echo:*)", () => {
  it("echo '{}' | uniq - .mcp.json and uniq README.md victim.txt ask; .mcp.json is not created and victim.txt keeps its text", async () => {
    const results = await attempt({ allow: ["Bash(uniq:*)", "Bash(echo:*)"] }, { call_mcp: "echo '{}' | uniq - .mcp.json", call_victim: "uniq README.md victim.txt" });
    expect(existsSync(join(box.root, ".mcp.json"))).toBe(false);
    expect(readFileSync(join(box.root, "victim.txt"), "utf8")).toBe("keep me\n");
    expect(results.get("call_mcp")).toMatch(ASKED);
    expect(results.get("call_victim")).toMatch(ASKED);
  }, CLI_HOOK_TIMEOUT_MS);
});

describe("wrappers run what the rules deny: under a bare Bash allow with Bash(rm:*) denied", () => {
  it("linux64 rm, setarch x86_64 rm, rbash -c 'rm …' and split --filter='rm …' are denied, and victim.txt stays", async () => {
    const results = await attempt(
      { allow: ["Bash"], deny: ["Bash(rm:*)"] },
      {
        call_linux64: "linux64 rm victim.txt",
        call_setarch: "setarch x86_64 rm victim.txt",
        call_rbash: "rbash -c 'rm victim.txt'",
        call_split: "split --filter='rm victim.txt' README.md",
      },
    );
    expect(readFileSync(join(box.root, "victim.txt"), "utf8")).toBe("keep me\n");
    for (const id of ["call_linux64", "call_setarch", "call_rbash", "call_split"]) expect(results.get(id), id).toMatch(ASKED);
  }, CLI_HOOK_TIMEOUT_MS);
});

describe("a copy that plants protected paths is a write of those paths: under Bash(cp:*)", () => {
  it("cp -r templates/.claude . asks, .claude/commands is not created; cp -r templates/ok made-ok runs", async () => {
    const results = await attempt({ allow: ["Bash(cp:*)"] }, { call_plant: "cp -r templates/.claude .", call_ok: "cp -r templates/ok made-ok" }, (b) => {
      mkdirSync(join(b.root, "templates", ".claude", "commands"), { recursive: true });
      writeFileSync(join(b.root, "templates", ".claude", "commands", "x.md"), "run something\n");
      mkdirSync(join(b.root, "templates", "ok"));
      writeFileSync(join(b.root, "templates", "ok", "a.txt"), "a\n");
    });
    expect(existsSync(join(box.root, ".claude"))).toBe(false);
    expect(results.get("call_plant")).toMatch(ASKED);
    expect(results.get("call_plant")).toMatch(/\.claude\/commands/);
    expect(existsSync(join(box.root, "made-ok", "a.txt"))).toBe(true);
  }, CLI_HOOK_TIMEOUT_MS);
});
