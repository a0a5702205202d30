// The checkpoint store's bound: content-addressed objects, the oldest turns dropped first when
// the store grows past settings checkpoints.maxBytes, and said so — also through the real CLI.
import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CheckpointStore } from "../../mods/checkpoints/store.js";
import { cliRig, type CliRig } from "../e2e/helpers.js";
import { ALLOW, turnScript } from "./helpers.js";

const dirs: string[] = [];
let rig: CliRig | undefined;
afterEach(async () => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  await rig?.close();
  rig = undefined;
});

function store(maxBytes: number): { s: CheckpointStore; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), "deepcode-ckpt-"));
  dirs.push(dir);
  return { s: new CheckpointStore(dir, "20261201-000000-abcdef", maxBytes), dir };
}

const file = (hash: string, size: number) => ({ kind: "file" as const, hash, size, mode: 0o644 });

describe("the checkpoint store", () => {
  it("saves a content once, whatever turn or file it comes from", () => {
    const { s, dir } = store(1_000_000);
    const a = s.save(Buffer.from("same bytes"));
    const b = s.save(Buffer.from("same bytes"));
    expect(a).toBe(b);
    expect(readdirSync(join(dir, "20261201-000000-abcdef.checkpoints", "objects"))).toEqual([a]);
    expect(s.bytes).toBe(10);
  });

  it("drops the oldest turns first when it passes its bound, keeps the latest, and deletes what nothing kept refers to", () => {
    const { s, dir } = store(1000);
    const objects = join(dir, "20261201-000000-abcdef.checkpoints", "objects");
    const shared = s.save(Buffer.alloc(100, 7));
    for (let turn = 1; turn <= 5; turn++) {
      const h = s.save(Buffer.alloc(400, turn));
      s.touch(turn, `/p/f${turn}`, file(h, 400));
      s.touch(turn, "/p/shared", file(shared, 100));
      s.ended(turn, `turn ${turn}`, 0);
      s.enforceBound();
      expect(s.bytes).toBeLessThanOrEqual(1000);
    }
    expect([...s.turns.values()].filter((t) => t.dropped).map((t) => t.turn)).toEqual([1, 2, 3]);
    // Turns 4 and 5 keep their own objects and the one they share with the dropped turns.
    expect(readdirSync(objects).sort()).toEqual([shared, s.turns.get(4)!.before.get("/p/f4")!, s.turns.get(5)!.before.get("/p/f5")!].map((e) => (typeof e === "string" ? e : (e as { hash: string }).hash)).sort());
    // A store read again from disk knows what was dropped.
    const again = new CheckpointStore(dir, "20261201-000000-abcdef", 1000);
    expect([...again.turns.values()].filter((t) => t.dropped).map((t) => t.turn)).toEqual([1, 2, 3]);
    expect(again.bytes).toBe(s.bytes);
  });

  it("keeps the latest turn whole even when it alone passes the bound", () => {
    const { s } = store(100);
    s.touch(1, "/p/big", file(s.save(Buffer.alloc(500, 1)), 500));
    s.ended(1, "turn 1", 0);
    expect(s.enforceBound()).toEqual({ turns: [], bytes: 0 });
    expect(s.turns.get(1)!.dropped).toBe(false);
  });
});

describe("the bound through the real CLI", () => {
  it("says which turns' checkpoints it dropped, and /rewind then says their changes stay", async () => {
    rig = await cliRig(turnScript(), { "shared.txt": "x".repeat(3000) });
    // The person's own settings: a project may not bound checkpoints below 1 MiB untrusted.
    writeFileSync(join(rig.env.home, "settings.json"), JSON.stringify({ checkpoints: { maxBytes: 5000 } }));
    const said: string[] = [];
    for (let k = 1; k <= 3; k++) {
      const r = await rig.run(["-p", ...(k > 1 ? ["-c"] : []), `turn ${k}`, ...ALLOW]);
      expect(r.code).toBe(0);
      said.push(r.stderr);
    }
    expect(said[0]).not.toContain("checkpoints:");
    expect(said[1]).toMatch(/checkpoints: the store passed its bound \(5 KiB, settings checkpoints\.maxBytes\): dropped the file checkpoints of turn 1 \(3 KiB freed\)/);
    const id = readdirSync(join(rig.env.home, "sessions"), { recursive: true }).map(String).find((f) => f.endsWith(".jsonl"))!.replace(/^.*\/|\.jsonl$/g, "");
    const r = await rig.run(["rewind", "--session", id, "--turn", "0", "--files"]);
    expect(r.stdout).toMatch(/the file checkpoints of turns? 1(, 2)? were dropped to keep the store within its bound/);
  });
});
