// Workspace trust in a real `deepcode -p`: a cloned repository's settings that run code (hooks)
// or loosen rules (allow Bash, the sandbox off) do nothing until the person trusts the project,
// while its deny rules apply at once. Trust comes from `deepcode trust` (remembered with a
// digest: a change asks again), `--trust-project` for one run, or `trustedProjects` in the
// person's own settings — never from the project's.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Simulator } from "../sim/server.mjs";
import { API_KEY, CLI_HOOK_TIMEOUT_MS, REPO, bashCall, makeBox, projectSettings, runCli, startSim, toolResults, writeJson, type Box } from "./helpers.js";

let box: Box;
let sim: Simulator | undefined;

/** What a stranger's repository might commit: hooks that run at start and before each tool,
 *  a blanket Bash allow, the sandbox switched off — and one deny rule, which must hold anyway. */
function strangersRepository(b: Box): void {
  projectSettings(b, {
    permissions: { allow: ["Bash"], deny: ["Bash(rm kept-by-deny.txt)"] },
    sandbox: { enabled: false },
    hooks: {
      SessionStart: [{ hooks: [{ type: "command", command: `touch '${join(b.outside, "ran-at-start")}'` }] }],
      PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `touch '${join(b.outside, "ran-before-tool")}'` }] }],
    },
  });
  writeFileSync(join(b.root, "victim.txt"), "mine\n");
  writeFileSync(join(b.root, "kept-by-deny.txt"), "mine\n");
}

const removeBoth = { replies: [{ tool_calls: [bashCall("call_rm", "rm victim.txt"), bashCall("call_rm_denied", "rm kept-by-deny.txt")] }, { content: "done" }] };

/** `deepcode trust [args]` in the project, as a person would run it. */
function trustCommand(args: string[] = []): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(REPO, "bin", "deepcode.js"), "trust", ...args], {
      cwd: box.root,
      env: { PATH: process.env.PATH, HOME: box.home, DEEPCODE_HOME: box.deepcodeHome, DEEPSEEK_API_KEY: API_KEY, NO_COLOR: "1" },
    });
    let stdout = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout }));
  });
}

/** The person's settings: the sandbox's own auto-allow off (sandbox.autoAllowBashIfSandboxed),
 *  so that what runs here is what the project's rules say, trusted or not. */
const personal = { sandbox: { autoAllowBashIfSandboxed: false } };

beforeEach(() => {
  box = makeBox();
  strangersRepository(box);
  writeJson(join(box.deepcodeHome, "settings.json"), personal);
});

afterEach(async () => {
  await sim?.close();
  sim = undefined;
  box.cleanup();
});

describe("an untrusted project (a cloned repository nobody vouched for)", () => {
  it("runs none of its hooks, keeps Bash asking (so -p denies), and names on stderr what it ignored", async () => {
    sim = await startSim(removeBoth);
    const r = await runCli({ box, sim, prompt: "clean up", untrusted: true });
    expect(existsSync(join(box.outside, "ran-at-start"))).toBe(false);
    expect(existsSync(join(box.outside, "ran-before-tool"))).toBe(false);
    expect(existsSync(join(box.root, "victim.txt"))).toBe(true);
    expect(toolResults(sim).get("call_rm")).toMatch(/^Permission denied for Bash/);
    expect(r.stderr).toMatch(/this project is not trusted, so deepcode ignored: .*allow rule Bash .*switch the Bash sandbox off.*run SessionStart hook/s);
    expect(r.stderr).toContain("deepcode trust");
  }, CLI_HOOK_TIMEOUT_MS);

  it("still applies its deny rules: tightening needs no trust", async () => {
    sim = await startSim(removeBoth);
    await runCli({ box, sim, prompt: "clean up", untrusted: true });
    expect(existsSync(join(box.root, "kept-by-deny.txt"))).toBe(true);
    expect(toolResults(sim).get("call_rm_denied")).toMatch(/Bash\(rm kept-by-deny\.txt\)/);
  }, CLI_HOOK_TIMEOUT_MS);

  it("cannot trust itself with trustedProjects in its own settings", async () => {
    projectSettings(box, { trustedProjects: [box.root], permissions: { allow: ["Bash"] } });
    sim = await startSim(removeBoth);
    const r = await runCli({ box, sim, prompt: "clean up", untrusted: true });
    expect(existsSync(join(box.root, "victim.txt"))).toBe(true);
    expect(r.stderr).toMatch(/not trusted/);
  }, CLI_HOOK_TIMEOUT_MS);
});

describe("a trusted project", () => {
  it("applies its settings for one run with --trust-project: hooks run, its allow rule allows, its deny still denies", async () => {
    sim = await startSim(removeBoth);
    const r = await runCli({ box, sim, prompt: "clean up" }); // runCli passes --trust-project
    expect(r.result?.stop_reason, r.stderr).toBe("completed");
    expect(existsSync(join(box.outside, "ran-at-start"))).toBe(true);
    expect(existsSync(join(box.outside, "ran-before-tool"))).toBe(true);
    expect(existsSync(join(box.root, "victim.txt"))).toBe(false);
    expect(existsSync(join(box.root, "kept-by-deny.txt"))).toBe(true);
    expect(r.stderr).not.toMatch(/not trusted/);
  }, CLI_HOOK_TIMEOUT_MS);

  it("is remembered after `deepcode trust`, which lists what takes effect", async () => {
    const t = await trustCommand();
    expect(t.code).toBe(0);
    expect(t.stdout).toMatch(/^Trusted .*These now take effect:\n.*allow rule Bash/s);
    sim = await startSim(removeBoth);
    await runCli({ box, sim, prompt: "clean up", untrusted: true });
    expect(existsSync(join(box.outside, "ran-at-start"))).toBe(true);
    expect(existsSync(join(box.root, "victim.txt"))).toBe(false);
  }, CLI_HOOK_TIMEOUT_MS);

  it("is untrusted again once what it holds changes (a new hook command), and says so", async () => {
    await trustCommand();
    projectSettings(box, { permissions: { allow: ["Bash"] }, hooks: { SessionStart: [{ hooks: [{ type: "command", command: `touch '${join(box.outside, "new-hook")}'` }] }] } });
    sim = await startSim(removeBoth);
    const r = await runCli({ box, sim, prompt: "clean up", untrusted: true });
    expect(existsSync(join(box.outside, "new-hook"))).toBe(false);
    expect(existsSync(join(box.root, "victim.txt"))).toBe(true);
    expect(r.stderr).toMatch(/not trusted \(what it holds changed since you answered\)/);
  }, CLI_HOOK_TIMEOUT_MS);

  it("stays untrusted after `deepcode trust --revoke`", async () => {
    await trustCommand();
    expect((await trustCommand(["--revoke"])).stdout).toMatch(/stays untrusted; ignored while it is:/);
    sim = await startSim(removeBoth);
    await runCli({ box, sim, prompt: "clean up", untrusted: true });
    expect(existsSync(join(box.root, "victim.txt"))).toBe(true);
  }, CLI_HOOK_TIMEOUT_MS);

  it("is trusted by trustedProjects in the person's own settings (for CI), a folder and everything below it", async () => {
    writeJson(join(box.deepcodeHome, "settings.json"), { ...personal, trustedProjects: [`${join(box.root, "..")}/**`] });
    sim = await startSim(removeBoth);
    const r = await runCli({ box, sim, prompt: "clean up", untrusted: true });
    expect(existsSync(join(box.root, "victim.txt"))).toBe(false);
    expect(r.stderr).not.toMatch(/not trusted/);
    expect((await trustCommand(["--show"])).stdout).toMatch(/trusted by trustedProjects in .*settings\.json/);
  }, CLI_HOOK_TIMEOUT_MS);
});
