// A subagent's engine has a Bash folder of its own: the files its shell command writes are
// saved where they are — not where the parent session's shell happens to be.
import { afterEach, describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cliRig, type CliRig } from "../e2e/helpers.js";

let rig: CliRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe("checkpoints of a subagent's shell writes", () => {
  it("saves the file the subagent's command writes from its own folder, so a rewind puts it back", async () => {
    rig = await cliRig({
      replies: [
        { tool_calls: [{ name: "Bash", arguments: { command: "cd sub" } }] },
        { tool_calls: [{ name: "Task", arguments: { description: "do it", prompt: "write it", subagent_type: "general-purpose" } }] },
        { tool_calls: [{ name: "Bash", arguments: { command: "echo changed > f.txt" } }] },
        { content: "sub done" },
        { content: "all done" },
      ],
    }, { "f.txt": "orig\n", "sub/f.txt": "sub's own\n" });
    expect((await rig.run(["-p", "go", "--allowedTools", "Bash,Task"])).code).toBe(0);
    expect(readFileSync(join(rig.env.root, "f.txt"), "utf8")).toBe("changed\n");
    const sessions = readdirSync(join(rig.env.home, "sessions"), { recursive: true }).map(String).filter((f) => f.endsWith(".jsonl"));
    const id = /([^/]+)\.jsonl$/.exec(sessions[0])![1];
    const r = await rig.run(["rewind", "--session", id, "--turn", "0", "--files"]);
    expect(r.code).toBe(0);
    expect(readFileSync(join(rig.env.root, "f.txt"), "utf8")).toBe("orig\n");
    expect(readFileSync(join(rig.env.root, "sub", "f.txt"), "utf8")).toBe("sub's own\n");
  });
});
