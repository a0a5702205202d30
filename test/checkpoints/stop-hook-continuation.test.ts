// A Stop hook that asks the model to go on keeps the turn running: a file first written in the
// continuation has its end state recorded too, and a revert never overwrites a change made
// after it silently — with no end state recorded at all, a file not as the target is a conflict.
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { planRevert } from "../../mods/checkpoints/revert.js";
import type { TurnInfo } from "../../mods/checkpoints/store.js";
import { cliRig, type CliRig } from "../e2e/helpers.js";
import { STOP_ONCE } from "./helpers.js";

let rig: CliRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});


describe("checkpoints and a Stop hook's continuation", () => {
  it("keeps a file written in the continuation and changed by the person afterwards, unless --force", async () => {
    rig = await cliRig({
      replies: [
        { tool_calls: [{ name: "Write", arguments: { file_path: "a.txt", content: "a\n" } }] },
        { content: "first stop" },
        { tool_calls: [{ name: "Write", arguments: { file_path: "b.txt", content: "b\n" } }] },
        { content: "second stop" },
      ],
    });
    writeFileSync(join(rig.env.home, "settings.json"), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: STOP_ONCE }] }] } }));
    expect((await rig.run(["-p", "go", "--allowedTools", "Write"])).code).toBe(0);
    expect(readFileSync(join(rig.env.root, "b.txt"), "utf8")).toBe("b\n");
    writeFileSync(join(rig.env.root, "a.txt"), "my own edit\n");
    writeFileSync(join(rig.env.root, "b.txt"), "my own edit\n");
    const id = /([^/]+)\.jsonl$/.exec(readdirSync(join(rig.env.home, "sessions"), { recursive: true }).map(String).find((f) => f.endsWith(".jsonl"))!)![1];
    const r = await rig.run(["rewind", "--session", id, "--turn", "0", "--files"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/a\.txt\s+kept: changed on disk since/);
    expect(r.stdout).toMatch(/b\.txt\s+kept: changed on disk since/);
    expect(readFileSync(join(rig.env.root, "a.txt"), "utf8")).toBe("my own edit\n");
    expect(readFileSync(join(rig.env.root, "b.txt"), "utf8")).toBe("my own edit\n");
    const forced = await rig.run(["rewind", "--session", id, "--turn", "0", "--files", "--force"]);
    expect(forced.code).toBe(0);
    expect([existsSync(join(rig.env.root, "a.txt")), existsSync(join(rig.env.root, "b.txt"))]).toEqual([false, false]);
  });

  it("treats a path with no recorded end state as a conflict when it is not as the target", async () => {
    // A turn that crashed before its end was recorded created f.txt; what is there now may be
    // the person's: removing it needs their word.
    const root = mkdtempSync(join(tmpdir(), "deepcode-revert-"));
    try {
      const path = join(root, "f.txt");
      writeFileSync(path, "now\n");
      const turn: TurnInfo = { turn: 1, prompt: "x", costUsd: 0, before: new Map([[path, null]]), after: new Map(), unseen: [], reverted: false, rewound: false, dropped: false };
      expect(planRevert([turn]).items.map((i) => ({ conflict: i.conflict, same: i.same }))).toEqual([{ conflict: true, same: false }]);
      rmSync(path);
      expect(planRevert([turn]).items.map((i) => ({ conflict: i.conflict, same: i.same }))).toEqual([{ conflict: false, same: true }]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
