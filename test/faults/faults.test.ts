// Faults at random points against the real CLI: kill -9 mid-run, a damaged transcript, two
// processes on one session. After each, `deepcode -c` must go on with every request accepted,
// the files deepcode wrote must be whole, and the ledger must have each request once.
//
// CI runs a small, fixed form (DEEPCODE_FAULTS trials, default 3: one of each kind; seed DEEPCODE_FAULTS_SEED,
// default fixed), within a time budget (DEEPCODE_FAULTS_MS; the trials not started by then are
// reported as not tried). A larger run: DEEPCODE_FAULTS=60 npx vitest run test/faults
// (DEEPCODE_FAULTS_VERBOSE=1 prints each trial; DEEPCODE_FAULTS_BIN=<other>/bin/deepcode.js
// measures another build). A failure names
// the seed and the trial; the same seed replays the same faults (kill points depend on the
// simulator's request count, then a seeded delay).
import { afterAll, describe, expect, it } from "vitest";
import { FaultRig, rng, sleep, ALLOW } from "./inject.js";

const TRIALS = Number(process.env.DEEPCODE_FAULTS ?? 3);
const SEED = Number(process.env.DEEPCODE_FAULTS_SEED ?? 20261202);

const BUDGET_MS = Number(process.env.DEEPCODE_FAULTS_MS ?? 45_000 + TRIALS * 12_000);
/** A new project every so many trials: the session (and what each request re-sends) stays small. */
const PER_PROJECT = 8;

let rigNow: FaultRig | undefined;
async function freshProject(): Promise<FaultRig> {
  await rigNow?.close();
  const f = (rigNow = await FaultRig.start());
  const first = await f.run(["-p", ...ALLOW, f.nextTurn()]);
  expect(first.code).toBe(0);
  return f;
}
afterAll(async () => {
  await rigNow?.close();
});

describe("faults at random points", () => {
  it(`survive: ${TRIALS} trials, seed ${SEED}`, { timeout: BUDGET_MS + 120_000 }, async () => {
    const r = rng(SEED);
    const failures: string[] = [];
    const kinds = ["kill", "corrupt", "race"] as const;
    const started = Date.now();
    let tried = 0;
    for (let t = 0; t < TRIALS && Date.now() - started < BUDGET_MS; t++) {
      const f = t % PER_PROJECT === 0 || !rigNow ? await freshProject() : rigNow;
      const kind = kinds[t % kinds.length]; // every kind in every run, the points random
      let detail: string;
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
      tried++;
      if (process.env.DEEPCODE_FAULTS_VERBOSE) console.log(`trial ${t} ${kind}: ${detail}: ${problems.length ? problems.join("; ") : "ok"}`);
    }
    const survived = tried - new Set(failures.map((x) => x.split(" (")[0])).size;
    console.log(`faults: ${tried} tried, ${survived} survived (seed ${SEED}${tried < TRIALS ? `; stopped at the time budget of ${BUDGET_MS} ms` : ""})`);
    expect(tried).toBeGreaterThan(0);
    expect(failures).toEqual([]);
  });
});
