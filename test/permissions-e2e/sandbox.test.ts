// The Bash sandbox in real processes. A command the gate allows (`node -e …`: the shell parser
// cannot see what a script inside does) still cannot write outside the workspace or open a
// connection — until settings allow the network. Skipped where bubblewrap cannot run (the
// sandbox mod says so at start; CI installs it).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sandboxStatus } from "../../mods/sandbox/index.js";
import type { Simulator } from "../sim/server.mjs";
import { CLI_HOOK_TIMEOUT_MS, bashCall, listen, makeBox, projectSettings, runCli, snapshot, startSim, toolResults, writeJson, type Box, type Listener } from "./helpers.js";

const available = sandboxStatus().active;

/** A node one-liner as a Bash command (single quotes outside, none inside). */
const node = (script: string): string => `node -e '${script}'`;
const writeTo = (path: string): string => node(`require("fs").writeFileSync(${JSON.stringify(path)}, "x"); console.log("wrote")`);
const readFrom = (path: string): string => node(`try { console.log("read: " + require("fs").readFileSync(${JSON.stringify(path)}, "utf8")) } catch (e) { console.log("cannot read: " + e.code) }`);
const connectTo = (port: number): string =>
  node(`require("net").connect(${port}, "127.0.0.1").on("connect", () => { console.log("connected"); process.exit(0) }).on("error", (e) => { console.log("no connection: " + e.code); process.exit(1) })`);

let box: Box;
let sim: Simulator | undefined;
let listener: Listener;
/** A folder in /var/tmp: outside the workspace and outside /tmp (which the sandbox replaces). */
let varTmp: string | undefined;

beforeAll(() => {
  try {
    varTmp = realpathSync(mkdtempSync("/var/tmp/deepcode-sandbox-"));
  } catch {
    varTmp = undefined; // no writable /var/tmp here: that escape is not tried
  }
});
afterAll(() => {
  if (varTmp) rmSync(varTmp, { recursive: true, force: true });
});
beforeEach(async () => {
  box = makeBox();
  listener = await listen();
});
afterEach(async () => {
  await sim?.close();
  sim = undefined;
  await listener.close();
  box.cleanup();
});

describe.skipIf(!available)("the Bash sandbox (bubblewrap) in a real process", () => {
  it("lets an allowed command write in the workspace, but not next to it, nor anywhere else on disk", async () => {
    projectSettings(box, { permissions: { allow: ["Bash(node -e:*)"] } });
    const outsideBefore = snapshot(box.outside);
    const calls = [
      bashCall("call_inside", writeTo(join(box.root, "inside.txt"))),
      bashCall("call_outside", writeTo(join(box.outside, "escaped.txt"))),
      ...(varTmp ? [bashCall("call_vartmp", writeTo(join(varTmp, "escaped.txt")))] : []),
    ];
    sim = await startSim({ replies: [{ tool_calls: calls }, { content: "done" }] });
    const run = await runCli({ box, sim, prompt: "write files", format: "stream-json" });
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(join(box.root, "inside.txt"), "utf8")).toBe("x");
    expect(snapshot(box.outside)).toEqual(outsideBefore);
    if (varTmp) expect(existsSync(join(varTmp, "escaped.txt"))).toBe(false);
    const results = toolResults(sim);
    expect(results.get("call_outside")).toMatch(/ENOENT|EROFS/);
    // /var/tmp is the sandbox's own empty folder: the host's is not there at all.
    if (varTmp) expect(results.get("call_vartmp")).toMatch(/ENOENT|EROFS/);
    // stream-json's user messages carry each tool result, deepcode's facts (meta) beside it.
    const ends = run.events.filter((e) => e.type === "user") as Array<{ deepcode?: { meta?: { sandbox?: string } } }>;
    expect(ends.map((e) => e.deepcode?.meta?.sandbox)).toEqual(calls.map(() => "bwrap"));
  }, CLI_HOOK_TIMEOUT_MS);

  it("hides the home folder's secrets, and keeps the project's settings and git hooks read-only", async () => {
    // The home folder is made writable (so visible: it is under /tmp, which the sandbox replaces):
    // the secrets inside must stay hidden all the same.
    projectSettings(box, { permissions: { allow: ["Bash(node -e:*)"], additionalDirectories: [box.home] } });
    mkdirSync(join(box.home, ".ssh"));
    writeFileSync(join(box.home, ".ssh", "id_rsa"), "PRIVATE KEY\n");
    mkdirSync(join(box.root, ".git", "hooks"), { recursive: true });
    writeFileSync(join(box.root, ".git", "hooks", "pre-commit"), "#!/bin/sh\n");
    const settings = join(box.root, ".deepcode", "settings.json");
    const before = readFileSync(settings, "utf8");
    const calls = [
      bashCall("call_key", readFrom(join(box.home, ".ssh", "id_rsa"))),
      bashCall("call_settings", writeTo(settings)),
      bashCall("call_hook", writeTo(join(box.root, ".git", "hooks", "pre-commit"))),
    ];
    sim = await startSim({ replies: [{ tool_calls: calls }, { content: "done" }] });
    const run = await runCli({ box, sim, prompt: "poke around" });
    expect(run.result?.stop_reason, run.stderr).toBe("completed");
    const results = toolResults(sim);
    expect(results.get("call_key")).toMatch(/cannot read: ENOENT/);
    expect(results.get("call_key")).not.toMatch(/PRIVATE KEY/);
    expect(results.get("call_settings")).toMatch(/EROFS/);
    expect(results.get("call_hook")).toMatch(/EROFS/);
    expect(readFileSync(settings, "utf8")).toBe(before);
    expect(readFileSync(join(box.root, ".git", "hooks", "pre-commit"), "utf8")).toBe("#!/bin/sh\n");
  }, CLI_HOOK_TIMEOUT_MS);

  it("keeps .deepcode/ read-only even in a project that has none: deepcode creates it empty first (the reproduction)", async () => {
    // Allowed from the user's settings, so the project has no .deepcode/ of its own; node -e, so
    // the gate cannot see the write and only the sandbox stands in its way.
    writeJson(join(box.deepcodeHome, "settings.json"), { permissions: { allow: ["Bash(node -e:*)"] } });
    expect(existsSync(join(box.root, ".deepcode"))).toBe(false);
    const plant = node(
      `const fs = require("fs"); for (const [f, t] of [[".deepcode/settings.json", "{}"], [".deepcode/commands/x.md", "run"]]) { try { fs.mkdirSync(require("path").dirname(f), { recursive: true }); fs.writeFileSync(f, t); console.log("wrote " + f) } catch (e) { console.log("cannot write " + f + ": " + e.code) } }`,
    );
    sim = await startSim({ replies: [{ tool_calls: [bashCall("call_plant", plant)] }, { content: "done" }] });
    const run = await runCli({ box, sim, prompt: "plant settings" });
    expect(run.result?.stop_reason, run.stderr).toBe("completed");
    // (Node's recursive mkdir reports the read-only folder as ENOENT.)
    expect(toolResults(sim).get("call_plant")).toMatch(/^cannot write \.deepcode\/settings\.json: EROFS\ncannot write \.deepcode\/commands\/x\.md: E(?:ROFS|NOENT)/);
    expect(snapshot(join(box.root, ".deepcode"))).toEqual({});
  }, CLI_HOOK_TIMEOUT_MS);

  it("keeps Claude Code's settings and commands read-only where they exist", async () => {
    writeJson(join(box.deepcodeHome, "settings.json"), { permissions: { allow: ["Bash(node -e:*)"] } });
    mkdirSync(join(box.root, ".claude", "commands"), { recursive: true });
    writeFileSync(join(box.root, ".claude", "settings.json"), "{}\n");
    const calls = [
      bashCall("call_settings", writeTo(join(box.root, ".claude", "settings.json"))),
      bashCall("call_command", writeTo(join(box.root, ".claude", "commands", "x.md"))),
      bashCall("call_notes", writeTo(join(box.root, ".claude", "notes.md"))),
    ];
    sim = await startSim({ replies: [{ tool_calls: calls }, { content: "done" }] });
    const run = await runCli({ box, sim, prompt: "edit claude settings" });
    expect(run.result?.stop_reason, run.stderr).toBe("completed");
    const results = toolResults(sim);
    expect(results.get("call_settings")).toMatch(/EROFS/);
    expect(results.get("call_command")).toMatch(/EROFS/);
    expect(readFileSync(join(box.root, ".claude", "settings.json"), "utf8")).toBe("{}\n");
    expect(existsSync(join(box.root, ".claude", "commands", "x.md"))).toBe(false);
    expect(readFileSync(join(box.root, ".claude", "notes.md"), "utf8")).toBe("x");
  }, CLI_HOOK_TIMEOUT_MS);

  it("still lets Grep (ripgrep, started through the same sandbox) search the workspace", async () => {
    writeFileSync(join(box.root, "needle.txt"), "a needle in here\n");
    sim = await startSim({ replies: [{ tool_calls: [{ id: "call_grep", name: "Grep", arguments: { pattern: "needle", output_mode: "files_with_matches" } }] }, { content: "done" }] });
    const run = await runCli({ box, sim, prompt: "find the needle", format: "stream-json" });
    expect(run.code, run.stderr).toBe(0);
    expect(toolResults(sim).get("call_grep")).toMatch(/needle\.txt/);
  }, CLI_HOOK_TIMEOUT_MS);

  it("keeps an allowed command off the network: a listener on 127.0.0.1 sees no connection", async () => {
    projectSettings(box, { permissions: { allow: ["Bash(node -e:*)"] } });
    sim = await startSim({ replies: [{ tool_calls: [bashCall("call_net", connectTo(listener.port))] }, { content: "done" }] });
    const run = await runCli({ box, sim, prompt: "connect" });
    expect(run.result?.stop_reason, run.stderr).toBe("completed");
    expect(listener.connections).toBe(0);
    expect(toolResults(sim).get("call_net")).toMatch(/no connection/);
  }, CLI_HOOK_TIMEOUT_MS);

  it("lets the command connect when settings say sandbox.network: true", async () => {
    projectSettings(box, { permissions: { allow: ["Bash(node -e:*)"] }, sandbox: { network: true } });
    sim = await startSim({ replies: [{ tool_calls: [bashCall("call_net", connectTo(listener.port))] }, { content: "done" }] });
    const run = await runCli({ box, sim, prompt: "connect" });
    expect(run.result?.stop_reason, run.stderr).toBe("completed");
    expect(toolResults(sim).get("call_net")).toMatch(/connected/);
    expect(listener.connections).toBe(1);
  }, CLI_HOOK_TIMEOUT_MS);

  it("is off when settings say sandbox.enabled: false (the write next to the workspace then lands)", async () => {
    projectSettings(box, { permissions: { allow: ["Bash(node -e:*)"] }, sandbox: { enabled: false } });
    sim = await startSim({ replies: [{ tool_calls: [bashCall("call_outside", writeTo(join(box.outside, "landed.txt")))] }, { content: "done" }] });
    const run = await runCli({ box, sim, prompt: "write" });
    expect(run.result?.stop_reason, run.stderr).toBe("completed");
    expect(readFileSync(join(box.outside, "landed.txt"), "utf8")).toBe("x");
  }, CLI_HOOK_TIMEOUT_MS);
});
