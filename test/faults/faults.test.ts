// Faults at random points against the real CLI: kill -9 mid-run, a damaged transcript, two
// processes on one session. After each, `deepcode -c` must go on with every request accepted,
// the files deepcode wrote must be whole, and the ledger must have each request once.
//
// CI runs a small, fixed form (DEEPCODE_FAULTS trials, default 3: one of each kind; seed DEEPCODE_FAULTS_SEED,
// default fixed). A larger run: DEEPCODE_FAULTS=60 npx vitest run test/faults. A failure names
// the seed and the trial; the same seed replays the same faults (kill points depend on the
// simulator's request count, then a seeded delay).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FaultRig, rng, sleep, ALLOW } from "./inject.js";

const TRIALS = Number(process.env.DEEPCODE_FAULTS ?? 3);
const SEED = Number(process.env.DEEPCODE_FAULTS_SEED ?? 20261202);

let f: FaultRig;
beforeAll(async () => {
  f = await FaultRig.start();
  const first = await f.run(["-p", ...ALLOW, f.nextTurn()]);
  expect(first.code).toBe(0);
});
afterAll(async () => {
  await f?.close();
});

describe("faults at random points", () => {
  it(`survive: ${TRIALS} trials, seed ${SEED}`, { timeout: 60_000 + TRIALS * 20_000 }, async () => {
    const r = rng(SEED);
    const failures: string[] = [];
    const kinds = ["kill", "corrupt", "race"] as const;
    for (let t = 0; t < TRIALS; t++) {
      const kind = kinds[t % kinds.length]; // every kind in every run, the points random
      let detail = "";
      if (kind === "kill") {
        const after = r.int(4);
        const ms = r.int(120);
        const k = await f.killed(after, ms);
        if (k.killed) f.killedSoFar++;
        detail = `SIGKILL after ${after} requests + ${ms} ms${k.killed ? "" : " (it had ended)"}`;
      } else if (kind === "corrupt") {
        detail = f.corrupt(r);
      } else {
        const gap = r.int(80);
        const a = f.run(["-p", "-c", ...ALLOW, f.nextTurn()]);
        await sleep(gap);
        const b = f.run(["-p", "-c", ...ALLOW, f.nextTurn()]);
        const [ra, rb] = await Promise.all([a, b]);
        detail = `two -c ${gap} ms apart (exits ${ra.code}, ${rb.code})`;
        if (ra.code !== 0 || rb.code !== 0) failures.push(`trial ${t} (${kind}: ${detail}): ${[ra.stderr, rb.stderr].join(" | ").trim()}`);
      }
      const problems = await f.check();
      if (problems.length) failures.push(`trial ${t} (${kind}: ${detail}): ${problems.join("; ")}`);
    }
    const survived = TRIALS - new Set(failures.map((x) => x.split(" (")[0])).size;
    console.log(`faults: ${TRIALS} tried, ${survived} survived (seed ${SEED})`);
    expect(failures).toEqual([]);
  });
});
