// `deepcode -p --permission-mode plan`: the real CLI against the simulator. A planning turn
// offers the same tools, denies every change (whatever the rules and hooks say), runs on the
// planner, and prints the plan.
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { call, cliRig, type CliRig } from "../e2e/helpers.js";
import { chatBodies } from "../helpers/extension.js";

const PLAN = "## Steps\n1. Add the flag.\n## Files\n- src/cli.js\n## Verification\n- node test.js";

let rig: CliRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const bodies = () => chatBodies(rig!.sim.requests) as unknown as Array<{ model: string; messages: Array<{ role: string; content: string }>; tools: unknown[]; thinking?: { type: string }; reasoning_effort?: string }>;

describe("deepcode -p --permission-mode plan", () => {
  it("denies a write while planning, runs on the planner tier, and prints the plan", async () => {
    rig = await cliRig({ replies: [call("Write", { file_path: "made.txt", content: "x" }), call("Read", { file_path: "a.txt" }), { content: PLAN }] }, { "a.txt": "hello\n" });
    const r = await rig.run(["-p", "add a --verbose flag", "--permission-mode", "plan", "--allowedTools", "Write"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${PLAN}\n`);
    expect(existsSync(join(rig.env.root, "made.txt"))).toBe(false);
    const b = bodies();
    expect(b).toHaveLength(3);
    // The default planner: reasoner-budget (deepseek-v4-pro, effort high), thinking on.
    for (const x of b) expect([x.model, x.thinking?.type, x.reasoning_effort]).toEqual(["deepseek-v4-pro", "enabled", "high"]);
    const denied = b[1].messages.at(-1)!;
    expect(denied).toMatchObject({ role: "tool", content: expect.stringMatching(/^Permission denied for Write: plan mode: you are planning, so Write does not run now/) });
    expect(b[2].messages.at(-1)).toMatchObject({ role: "tool", content: expect.stringContaining("hello") });
    // The instruction rides at the turn's tail, before the prompt, never in the system prompt.
    const user = b[0].messages.filter((m) => m.role === "user");
    expect(user.at(-1)!.content).toBe("add a --verbose flag");
    expect(user.at(-2)!.content).toMatch(/You are in plan mode: look, do not touch[\s\S]*## Steps[\s\S]*## Files[\s\S]*## Verification/);
    expect(b[0].messages[0].content).not.toContain("plan mode");
    expect(r.stderr).toContain("planning with reasoner-budget (deepseek-v4-pro)");
  });

  it("keeps the prefix byte-identical before, during and after a planning turn", async () => {
    rig = await cliRig({ default: { content: "done" } }, { "a.txt": "hello\n" });
    expect((await rig.run(["-p", "say hi"])).code).toBe(0);
    expect((await rig.run(["-p", "-c", "--permission-mode", "plan", "plan the change"])).code).toBe(0);
    expect((await rig.run(["-p", "-c", "carry it out"])).code).toBe(0);
    const b = bodies();
    expect(b.map((x) => x.model)).toEqual(["deepseek-flash", "deepseek-v4-pro", "deepseek-flash"]);
    const prefix = (x: (typeof b)[number]) => JSON.stringify([x.messages[0], x.tools]);
    expect(prefix(b[1])).toBe(prefix(b[0]));
    expect(prefix(b[2])).toBe(prefix(b[0]));
    // The executor's request after the planning turn extends its own earlier request.
    const raw = rig.sim.requests.filter((q) => q.usage);
    expect(raw[2].usage!.prompt_cache_hit_tokens).toBeGreaterThanOrEqual(Math.floor(raw[0].usage!.prompt_tokens / 64) * 64);
    expect(b[2].messages.slice(0, b[0].messages.length)).toEqual(b[0].messages);
  });

  it("denies the change even when a rule and a PreToolUse hook allow it, and lists it in permission_denials", async () => {
    const hook = { hooks: { PreToolUse: [{ matcher: "Write|Edit|Bash", hooks: [{ type: "command", command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'` }] }] }, permissions: { allow: ["Write", "Edit", "Bash"] } };
    rig = await cliRig({ replies: [call("Edit", { file_path: "a.txt", old_string: "hello", new_string: "bye" }), { content: PLAN }] }, { "a.txt": "hello\n", ".deepcode/settings.json": JSON.stringify(hook) });
    const r = await rig.run(["-p", "--permission-mode", "plan", "--output-format", "json", "--trust-project", "plan it"]);
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout) as { result: string; permission_denials: Array<{ tool_name: string; reason: string }> };
    expect(result.result).toBe(PLAN);
    expect(result.permission_denials).toEqual([expect.objectContaining({ tool_name: "Edit", reason: expect.stringMatching(/^plan mode: /) })]);
    expect(readFileSync(join(rig.env.root, "a.txt"), "utf8")).toBe("hello\n");
  });

  it("says permissionMode plan on stream-json's init line", async () => {
    rig = await cliRig({ replies: [{ content: PLAN }] });
    const r = await rig.run(["-p", "--permission-mode", "plan", "--output-format", "stream-json", "plan it"]);
    const lines = rig.lines(r);
    expect(lines[0]).toMatchObject({ type: "system", subtype: "init", permissionMode: "plan" });
    expect(lines.at(-1)).toMatchObject({ type: "result", subtype: "success", result: PLAN });
  });
});
