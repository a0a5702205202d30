// A checkpoint journal with a torn or garbled line: `deepcode rewind --files` never says it put
// back what it could not (the lines that recorded those files are named, and it exits 1), and a
// torn last line does not swallow the next turn's records.
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliRig, type CliRig } from "../e2e/helpers.js";
import { ALLOW, turnScript } from "./helpers.js";

let rig: CliRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

async function turns(n: number): Promise<{ id: string; journal: string }> {
  rig = await cliRig(turnScript(), { "shared.txt": "line0\n" });
  for (let k = 1; k <= n; k++) {
    const r = await rig.run(["-p", ...(k > 1 ? ["-c"] : []), ...ALLOW, `turn ${k}`]);
    expect(r.code).toBe(0);
  }
  const base = join(rig.env.home, "sessions");
  const dir = join(base, readdirSync(base)[0]);
  const id = readdirSync(dir).find((f) => f.endsWith(".jsonl"))!.slice(0, -6);
  return { id, journal: join(dir, `${id}.checkpoints`, "journal") };
}

const read = (p: string) => readFileSync(join(rig!.env.root, p), "utf8");

describe("a damaged checkpoint journal", () => {
  it("rewind --files does not claim a restore its damaged lines kept it from doing", async () => {
    const { id, journal } = await turns(3);
    const lines = readFileSync(journal, "utf8").split("\n");
    const damaged = lines.map((l) => (l.startsWith('{"t":"touch","turn":3') ? `${l.slice(0, 25)}\u0000garbled` : l));
    expect(damaged).not.toEqual(lines);
    writeFileSync(journal, damaged.join("\n"));
    const r = await rig!.run(["rewind", "--session", id, "--turn", "2", "--files"]);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain("no file to put back");
    expect(r.stdout).toMatch(/\(checkpoint journal\)\s+NOT restored: line \d+ \(turn 3\), line \d+ \(turn 3\) of the checkpoint journal could not be read/);
    expect(r.stderr).toContain("not everything was put back");
    // What it said is what happened: turn 3's changes are still there.
    expect(existsSync(join(rig!.env.root, "f3.txt"))).toBe(true);
    expect(read("shared.txt")).toBe("line0\nline1\nline2\nline3\n");
  });

  it("a torn last line does not swallow the next turn's records: its changes can be put back", async () => {
    const { id, journal } = await turns(2);
    const text = readFileSync(journal, "utf8");
    writeFileSync(journal, text.slice(0, text.length - 20)); // kill -9 in the middle of the last line
    expect((await rig!.run(["-p", "-c", ...ALLOW, "turn 3"])).code).toBe(0);
    const r = await rig!.run(["rewind", "--session", id, "--turn", "2", "--files"]);
    expect(r.stdout).toMatch(/f3\.txt\s+removed \(created in turn 3\)/);
    expect(existsSync(join(rig!.env.root, "f3.txt"))).toBe(false);
    expect(read("shared.txt")).toBe("line0\nline1\nline2\n");
  });
});
