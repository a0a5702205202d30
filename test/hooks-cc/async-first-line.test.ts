// A hook that says it is async on its first output line (security-guidance's SessionStart job
// prints `{"async": true, "asyncTimeout": 180000}` before a slow install), without `async: true`
// in its configuration: the event goes on at once, as in Claude Code, and the line is not taken
// for the hook's answer. The hook here waits for the test's word, given only after the run ended:
// had the run waited for it, the run would never end on its own.
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliRig, type CliRig } from "../e2e/helpers.js";
import { chatBodies } from "../helpers/extension.js";

let rig: CliRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const settings = (hooks: object): string => JSON.stringify({ hooks });

describe("a hook whose first output line announces it is async", () => {
  it("does not hold the session's start, and its later output is not read as its answer", async () => {
    const script = [
      `printf '%s\\n' '{"async": true, "asyncTimeout": 180000}'`,
      "echo started > started.txt",
      "while [ ! -f go.txt ]; do sleep 0.1; done",
      `printf '%s\\n' '{"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "LATE-CONTEXT"}}'`,
    ].join("; ");
    const hooks = { SessionStart: [{ hooks: [{ type: "command", command: script, timeout: 180 }] }] };
    rig = await cliRig({ default: { content: "ok" } }, { ".deepcode/settings.json": settings(hooks) });
    const r = await rig.run(["-p", "hi", "--trust-project"]);
    writeFileSync(join(rig.env.root, "go.txt"), "");
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe("ok");
    expect(existsSync(join(rig.env.root, "started.txt"))).toBe(true);
    expect(r.stderr).not.toMatch(/SessionStart|async|not JSON|timed out/);
    expect(JSON.stringify(chatBodies(rig.sim.requests))).not.toContain("LATE-CONTEXT");
  });

  it("still reads an ordinary first line as the hook's answer", async () => {
    const hooks = { SessionStart: [{ hooks: [{ type: "command", command: `printf '%s\\n' '{"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "EARLY-CONTEXT"}}'` }] }] };
    rig = await cliRig({ default: { content: "ok" } }, { ".deepcode/settings.json": settings(hooks) });
    const r = await rig.run(["-p", "hi", "--trust-project"]);
    expect(r.code).toBe(0);
    expect(JSON.stringify(chatBodies(rig.sim.requests))).toContain("EARLY-CONTEXT");
  });
});
