// Claude Code's background hooks through the real CLI: `async: true` never holds the event up
// and dies with the session; `asyncRewake: true` wakes the model with what it said on exit 2.
// Run `npx tsc -p tsconfig.json` first (the CLI runs from dist/).
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { call, cliRig, type CliRig } from "../e2e/helpers.js";
import { chatBodies } from "../helpers/extension.js";
import { processesRunning } from "../helpers/processes.js";

let rig: CliRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const settings = (hooks: object, allow: string[] = []): string => JSON.stringify({ hooks, permissions: { allow } });

async function until(ok: () => boolean, ms = 60_000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((res) => setTimeout(res, 100))) if (ok()) return true;
  return ok();
}

describe("an async hook", () => {
  it("that sleeps 30 s at SessionStart does not delay a -p turn, and ends with the session", async () => {
    // The shape security-guidance's SessionStart has: a slow start-up job, marked async.
    // (Its sleep is found by its own length among the host's processes: in the sandbox `$$` is
    // the sandbox's pid.)
    const seconds = `30.${process.pid}`;
    const slow = { SessionStart: [{ hooks: [{ type: "command", command: `echo started > ss.txt; sleep ${seconds}; echo late > late.txt`, async: true }] }] };
    rig = await cliRig({ default: { content: "ok" } }, { ".deepcode/settings.json": settings(slow) });
    const t0 = Date.now();
    const r = await rig.run(["-p", "hi", "--trust-project"]);
    const took = Date.now() - t0;
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe("ok");
    expect(took).toBeLessThan(25_000); // synchronously it held the turn for the hook's 30 s
    expect(readFileSync(join(rig.env.root, "ss.txt"), "utf8")).toBe("started\n");
    expect(await until(() => processesRunning(`sleep\0${seconds}`).length === 0)).toBe(true); // ended with the session, not left running for 30 s
    expect(existsSync(join(rig.env.root, "late.txt"))).toBe(false);
    expect(r.stderr).not.toMatch(/SessionStart/);
  });

  it("with asyncRewake wakes the model with its stderr when it exits 2, after the next tool result", async () => {
    // A background check after each Bash call (a linter, a test run): it reports a failure late.
    const hooks = { PostToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "sleep 0.3; echo 'lint failed in a.ts' >&2; exit 2", asyncRewake: true }] }] };
    rig = await cliRig(
      { replies: [call("Bash", { command: "true" }), call("Bash", { command: "sleep 5" }), { content: "fixed the lint" }] },
      { ".deepcode/settings.json": settings(hooks, ["Bash(true)", "Bash(sleep:*)"]) },
    );
    const r = await rig.run(["-p", "tidy up", "--trust-project"]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe("fixed the lint");
    const bodies = chatBodies(rig.sim.requests);
    const results = bodies[bodies.length - 1].messages.filter((m) => m.role === "tool").map((m) => String(m.content));
    expect(results).toHaveLength(2);
    // The call it ran after went on without it; the report came with the next result.
    expect(results[0]).not.toContain("lint failed");
    expect(results[1]).toContain("lint failed in a.ts");
    expect(results[1]).toMatch(/background hook/);
  });

  it("with asyncRewake that exits 2 after the model's last reply continues the turn with what it said", async () => {
    const hooks = { PostToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "sleep 0.3; echo 'tests fail: 2 of 40' >&2; exit 2", asyncRewake: true }] }] };
    // The sim holds the second reply back for 4 s: the hook ends before the model's answer.
    rig = await cliRig(
      { replies: [call("Bash", { command: "true" }), { content: "all done", keepAliveMs: 4000 }, { content: "fixing the 2 tests" }] },
      { ".deepcode/settings.json": settings(hooks, ["Bash(true)"]) },
    );
    const r = await rig.run(["-p", "go", "--trust-project"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("fixing the 2 tests");
    const bodies = chatBodies(rig.sim.requests);
    expect(bodies).toHaveLength(3);
    const last = bodies[2].messages[bodies[2].messages.length - 1];
    expect(last.role).toBe("user");
    expect(String(last.content)).toContain("tests fail: 2 of 40");
  });
});
