// The job table and what BashOutput makes of a job's output, with real bash through the core's
// own process.run (its process groups): only new output is shown, a filter consumes what it
// hides, output past the bound is dropped and said, the number running at once is bounded, and
// a kill takes the job's whole process group.
import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runProcess } from "../../src/core/effects.js";
import type { ProcessRunRequest, ProcessRunResult } from "../../src/contract/index.js";
import { OutputRing } from "../../mods/jobs/ring.js";
import { exitNotice, readNew, table as jobsTable } from "../../mods/jobs/format.js";
import { DEFAULT_LIMITS, JobTable, type Job } from "../../mods/jobs/table.js";
import { eventually, processesRunning, uniqueSleep } from "./helpers.js";

const ended: Job[] = [];
let jobs: JobTable | undefined;
afterEach(async () => {
  await jobs?.killAll("session");
  jobs = undefined;
  ended.length = 0;
});

function realTable(limits: Partial<typeof DEFAULT_LIMITS> = {}): JobTable {
  jobs = new JobTable((req: ProcessRunRequest): Promise<ProcessRunResult> => runProcess(req), { ...DEFAULT_LIMITS, ...limits }, (j) => ended.push(j));
  return jobs;
}

function started(t: JobTable, command: string): Job {
  const j = t.start({ sessionId: "s1", command, cwd: process.cwd() });
  if ("refused" in j) throw new Error(j.refused);
  return j;
}

describe("a job's output", () => {
  it("keeps the newest characters up to the bound and counts what it dropped", () => {
    const ring = new OutputRing(10);
    ring.push("0123456789");
    ring.push("abcdefghij");
    ring.push("XYZ");
    expect(ring.total).toBe(23);
    expect(ring.dropped).toBe(13);
    expect(ring.since(0)).toEqual({ text: "defghijXYZ", lost: 13 });
    expect(ring.since(20)).toEqual({ text: "XYZ", lost: 0 });
  });

  it("is shown only once: a second read says there is nothing new, then shows what came since", async () => {
    const t = realTable();
    const dir = mkdtempSync(join(tmpdir(), "deepcode-jobs-"));
    const j = t.start({ sessionId: "s1", command: "echo first; echo second; while [ ! -e go ]; do sleep 0.05; done; echo third; sleep 30", cwd: dir }) as Job;
    expect(await eventually(() => j.out.total >= 13)).toBe(true);
    const one = readNew(j, undefined, Date.now()).text;
    expect(one).toMatch(/^first\nsecond\n\[job 1 running for \d+ s\]$/);
    expect(readNew(j, undefined, Date.now()).text).toMatch(/^\(no new output\)\n\[job 1 running/);
    writeFileSync(join(dir, "go"), "");
    expect(await eventually(() => j.out.total > 13)).toBe(true);
    expect(readNew(j, undefined, Date.now()).text).toMatch(/^third\n\[job 1 running/);
  });

  it("with a filter shows the matching lines, and the others are consumed too", async () => {
    const t = realTable();
    const j = started(t, "printf 'info a\\nerror b\\ninfo c\\nerror d\\n'");
    await j.done;
    const r = readNew(j, /error/, Date.now()).text;
    expect(r).toMatch(/^error b\nerror d\n\[2 lines not matching the filter left out\]\n\[job 1 exited with code 0 after \d+ s\]$/);
    expect(readNew(j, undefined, Date.now()).text).toMatch(/^\(no new output\)/);
  });

  it("says how much came and went between two reads when the job wrote more than it keeps", async () => {
    const t = realTable({ maxOutputChars: 1_000 });
    const j = started(t, "seq 1 2000");
    await j.done;
    const r = readNew(j, undefined, Date.now()).text;
    expect(r).toContain("[7,893 characters of output came and went since the last read (each job keeps its last 1,000)]");
    expect(r).toMatch(/\n2000\n/);
    expect(jobsTable(t.list(), Date.now())).toMatch(/1\s+exited with code 0\s+\d+ s\s+8\.9k chars \(7\.9k chars dropped\)\s+seq 1 2000/);
  });

  it("tells the model, when the job ended on its own, how it ended and how much it did not read", async () => {
    const t = realTable();
    const j = started(t, "echo unread; exit 3");
    await j.done;
    expect(exitNotice(j)).toBe("Background job 1 (`echo unread; exit 3`) exited with code 3; 7 chars of its output unread (BashOutput).");
    expect(ended.map((e) => e.id)).toEqual(["1"]);
  });
});

describe("the bounds on jobs", () => {
  it("refuses a job past the most allowed at once, and a job that ended frees its place", async () => {
    const t = realTable({ maxJobs: 2 });
    const a = started(t, "sleep 30");
    started(t, "sleep 30");
    const third = t.start({ sessionId: "s1", command: "echo three", cwd: process.cwd() });
    expect(third).toEqual({ refused: expect.stringContaining("2 background jobs are running, the most allowed at once (pluginConfig.jobs.maxJobs)") });
    expect(await t.kill(a, "model")).toBe(true);
    expect("refused" in t.start({ sessionId: "s1", command: "echo three", cwd: process.cwd() })).toBe(false);
  });

  it("remembers only the newest finished jobs", async () => {
    const t = realTable({ keepFinished: 2 });
    for (let i = 0; i < 4; i++) await started(t, `echo ${i}`).done;
    started(t, "true");
    expect(t.list().map((j) => j.id)).toEqual(["3", "4", "5"]);
    expect(t.get("1")).toBeUndefined();
    expect(t.get("bash_4")?.id).toBe("4");
  });
});

describe("stopping a job", () => {
  it("kills every process the job started, not only bash", async () => {
    const t = realTable();
    const sleep = uniqueSleep();
    const j = started(t, `${sleep} & ${sleep} & wait`);
    expect(await eventually(() => processesRunning(sleep).length === 2)).toBe(true);
    expect(await t.kill(j, "model")).toBe(true);
    expect(j.state).toBe("killed");
    expect(await eventually(() => processesRunning(sleep).length === 0)).toBe(true);
  });
});
