// A full checkpoint store: a change that cannot be checkpointed is not made — the model reads a
// tool error saying why — so `/rewind` never claims files are as they were while one keeps an
// edit it could not undo. And a journal line the disk tore is cut back, never glued to the next.
import { describe, expect, it, vi } from "vitest";
vi.mock("node:fs", async (orig) => (await import("../helpers/full-disk.js")).mockFs(await orig()));
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { disk } from "../helpers/full-disk.js";
import checkpoints from "../../mods/checkpoints/index.js";
import { CheckpointStore } from "../../mods/checkpoints/store.js";
import { builtinTools } from "../../src/builtins/index.js";
import { chatBodies } from "../helpers/extension.js";
import { startHarness } from "../helpers/harness.js";
import { scratch } from "./scratch.js";

const t = scratch();
/** A checkpoint store of its own, with turn 1 having touched /p/a. */
function touched(): { s: CheckpointStore; dir: string } {
  const dir = t.dir();
  const s = new CheckpointStore(dir, "s1", 1_000_000);
  s.touch(1, "/p/a", null);
  return { s, dir };
}

const edit = { name: "Edit", arguments: { file_path: "a.txt", old_string: "v1", new_string: "v2" } };

describe("an edit when the checkpoint store is full", () => {
  it("is not made, and the model reads a tool error naming the file and the full disk", async () => {
    const h = t.track(await startHarness({ script: { replies: [{ tool_calls: [{ name: "Read", arguments: { file_path: "a.txt" } }] }, { tool_calls: [edit] }, { content: "done" }] }, tools: builtinTools({ rgPath: null }), allowAll: true, mods: [checkpoints] }));
    writeFileSync(join(h.root, "a.txt"), `v1\n${"x".repeat(4096)}\n`);
    disk.fill(join(h.store.dir, `${h.engine.sessionId}.checkpoints`));
    await h.turn("change a.txt");
    disk.free();
    expect(readFileSync(join(h.root, "a.txt"), "utf8").startsWith("v1\n")).toBe(true);
    const sent = chatBodies(h.sim.requests).pop()!.messages;
    const result = sent.filter((m) => m.role === "tool").pop() as { content: string };
    expect(result.content).toMatch(/could not save a checkpoint of a\.txt in .*\.checkpoints \(no space left on device\)/);
    expect(result.content).toMatch(/not (run|written)/);
  });
});

describe("the checkpoint journal on a full disk", () => {
  it("leaves no torn line when the disk refuses a record part-way, and the next record is read", () => {
    const { s, dir } = touched();
    disk.left = 10;
    expect(() => s.touch(1, "/p/b", null)).toThrow(/ENOSPC/);
    expect(s.touched(1, "/p/b")).toBe(false); // not recorded: the caller refuses the change
    disk.free();
    s.touch(1, "/p/c", null);
    const again = new CheckpointStore(dir, "s1", 1_000_000);
    expect([...again.turn(1).before.keys()]).toEqual(["/p/a", "/p/c"]);
    expect(again.turn(1).damaged).toEqual([]);
  });

  it("leaves no temporary file when a checkpoint's content does not fit", () => {
    const { s, dir } = touched();
    disk.left = 100;
    expect(() => s.save(Buffer.alloc(4096, 1))).toThrow(/ENOSPC/);
    disk.free();
    expect(readdirSync(join(dir, "s1.checkpoints", "objects"))).toEqual([]);
  });
});
