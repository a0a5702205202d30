// What /rewind and `deepcode rewind` list as effects checkpoints cannot see (issue 39): a tool
// whose effects are its own is named once ("Remember: …", not "Remember: Remember: …"), and a
// command that changes no file (seq, sleep, a curl to the screen) is not among them.
import { afterEach, describe, expect, it } from "vitest";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { cliRig, type CliRig } from "../e2e/helpers.js";

let rig: CliRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe("the effects a rewind says it cannot see", () => {
  it("names the Remember tool once, and leaves out seq and sleep", async () => {
    rig = await cliRig({
      replies: [
        { tool_calls: [{ name: "Remember", arguments: { memory: "Run the tests with node test/run.js." } }, { name: "Bash", arguments: { command: "seq 1 3 && sleep 0" } }] },
        { content: "noted" },
      ],
    });
    expect((await rig.run(["-p", "remember how to test", "--allowedTools", "Remember,Bash"])).code).toBe(0);
    const id = /([^/]+)\.jsonl$/.exec(readdirSync(join(rig.env.home, "sessions"), { recursive: true }).map(String).find((f) => f.endsWith(".jsonl"))!)![1];
    const r = await rig.run(["rewind", "--session", id, "--turn", "0", "--files"]);
    expect(r.stdout).toContain("turn 1: Remember: deepcode cannot see which files it changes");
    expect(r.stdout).not.toContain("Remember: Remember:");
    expect(r.stdout).not.toMatch(/seq|sleep/);
  });
});
