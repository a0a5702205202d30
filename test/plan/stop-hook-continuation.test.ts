// A Stop hook that asks the model to go on (`decision: "block"`) keeps the same turn running:
// while it plans, everything that turn starts — a subagent included — plans with it until the
// turn really ends.
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliRig, type CliRig } from "../e2e/helpers.js";
import { STOP_ONCE } from "../checkpoints/helpers.js";
import { chatBodies } from "../helpers/extension.js";

let rig: CliRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});


describe("plan mode and a Stop hook's continuation", () => {
  it("denies a subagent's write started in the continuation of a planning turn", async () => {
    rig = await cliRig({
      replies: [
        { content: "## Steps\n1. plan" },
        { tool_calls: [{ name: "Task", arguments: { description: "do it", prompt: "write it", subagent_type: "general-purpose" } }] },
        { tool_calls: [{ name: "Write", arguments: { file_path: "sub-wrote.txt", content: "x\n" } }] },
        { content: "sub done" },
        { content: "## Steps\n1. plan again" },
      ],
    });
    writeFileSync(join(rig.env.home, "settings.json"), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: STOP_ONCE }] }] } }));
    const r = await rig.run(["-p", "plan it", "--permission-mode", "plan", "--allowedTools", "Write,Task"]);
    expect(r.code).toBe(0);
    const results = chatBodies(rig.sim.requests).flatMap((b) => b.messages.filter((m) => m.role === "tool").map((m) => String(m.content)));
    expect(results.some((t) => /^Permission denied for Write: plan mode/.test(t))).toBe(true);
    expect(existsSync(join(rig.env.root, "sub-wrote.txt"))).toBe(false);
    expect(r.stdout).toContain("plan again");
  });
});
