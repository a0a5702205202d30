// The background jobs of this deepcode process: each one a `bash -c` command started through
// `process.run` on the chain (so the sandbox wraps it and the core puts it in a process group of
// its own, which the core's exit handler and its watchdog kill when deepcode ends, kill -9
// included), with its output kept in a ring. Every job asks to serve (a dev server): where a
// sandbox contains it, the ports it listens on are forwarded from the host's loopback. Bounded: at most `maxJobs` run at once, at most
// `keepFinished` finished ones are remembered (the oldest forgotten first).

import type { ProcessRunRequest, ProcessRunResult, ServeNotice } from "../../src/contract/index.js";
import { OutputRing } from "./ring.js";

export type JobState = "running" | "exited" | "killed" | "failed";
/** Who stopped a job: the model (KillShell), the person (/jobs kill), the session's end. */
export type Stopper = "model" | "person" | "session";

export interface Job {
  readonly id: string;
  readonly command: string;
  readonly description?: string;
  readonly cwd: string;
  /** The session whose call started it. */
  readonly sessionId: string;
  readonly started: number;
  ended?: number;
  state: JobState;
  exitCode: number | null;
  signal: string | null;
  /** Why it could not run (a hook refused the process, bash could not start). */
  error?: string;
  stoppedBy?: Stopper;
  readonly out: OutputRing;
  /** Offset into `out` up to which BashOutput has shown it. */
  read: number;
  /** The model has heard that it ended (a notice, or BashOutput after the end). */
  heard: boolean;
  /** Set when a sandbox wrapped it ("bwrap"). */
  sandbox?: string;
  /** The ports its server is reached at from the host's loopback (a sandbox forwards them:
   *  ProcessRunRequest.serve), port → address, lowest first when listed. */
  readonly served: Map<number, string>;
  /** Ports it listens on that could not be forwarded (taken on the host), port → why. */
  readonly taken: Map<number, string>;
  /** The start result has been written (addresses forwarded after it reach the model as notes). */
  startTold?: boolean;
  readonly done: Promise<void>;
  readonly stop: () => void;
}

export interface JobLimits {
  maxJobs: number;
  maxOutputChars: number;
  keepFinished: number;
}

export const DEFAULT_LIMITS: JobLimits = { maxJobs: 8, maxOutputChars: 500_000, keepFinished: 32 };

/** The longest timer Node keeps (about 24.8 days): a background job has no timeout of its own. */
const NO_TIMEOUT_MS = 2_147_483_647;
/** What process.run keeps of each stream for its final result, which jobs do not use (their
 *  output goes to the ring as it arrives). */
const RESULT_BYTES = 4096;
/** How long a kill waits for the job to end: past the core's SIGTERM → SIGKILL grace. */
export const KILL_WAIT_MS = 4_000;

export interface StartRequest {
  sessionId: string;
  command: string;
  description?: string;
  cwd: string;
}

export class JobTable {
  private readonly jobs = new Map<string, Job>();
  private seq = 0;

  constructor(
    private readonly run: (req: ProcessRunRequest) => Promise<ProcessRunResult>,
    readonly limits: JobLimits,
    private readonly onEnd: (job: Job) => void,
    private readonly now: () => number = Date.now,
    /** Hears each port of a job forwarded to the host's loopback (or no longer). */
    private readonly onServe: (job: Job, notice: ServeNotice) => void = () => undefined,
  ) {}

  running(): Job[] {
    return this.list().filter((j) => j.state === "running");
  }

  /** Every job remembered, oldest first. */
  list(): Job[] {
    return [...this.jobs.values()];
  }

  /** A job by id: `3`, `#3` or `bash_3` (the forms a model or a person may type). */
  get(id: string): Job | undefined {
    const m = /^(?:#|bash_)?(\d+)$/.exec(id.trim());
    return m ? this.jobs.get(String(Number(m[1]))) : undefined;
  }

  /** Start a job, or say why not (the bound). */
  start(req: StartRequest): Job | { refused: string } {
    const live = this.running().length;
    if (live >= this.limits.maxJobs) {
      return { refused: `${live} background job${live === 1 ? " is" : "s are"} running, the most allowed at once (pluginConfig.jobs.maxJobs). Stop one with KillShell first, or run this one in the foreground.` };
    }
    const controller = new AbortController();
    let finish!: () => void;
    const done = new Promise<void>((resolve) => (finish = resolve));
    const job: Job = {
      id: String(++this.seq),
      command: req.command,
      ...(req.description ? { description: req.description } : {}),
      cwd: req.cwd,
      sessionId: req.sessionId,
      started: this.now(),
      state: "running",
      exitCode: null,
      signal: null,
      out: new OutputRing(this.limits.maxOutputChars),
      read: 0,
      heard: false,
      served: new Map(),
      taken: new Map(),
      done,
      stop: () => controller.abort(),
    };
    this.jobs.set(job.id, job);
    this.forgetOld();
    const ended = (patch: Partial<Job>): void => {
      Object.assign(job, patch, { ended: this.now() });
      job.served.clear();
      if (job.state === "running") job.state = "exited";
      finish();
      try {
        this.onEnd(job);
      } catch {
        // a notice that fails to be queued must not leave the job looking alive
      }
    };
    this.run({
      argv: ["bash", "-c", req.command],
      cwd: req.cwd,
      command: req.command,
      env: { PAGER: "cat", GIT_PAGER: "cat", GIT_TERMINAL_PROMPT: "0" },
      timeoutMs: NO_TIMEOUT_MS,
      maxOutputBytes: RESULT_BYTES,
      signal: controller.signal,
      onOutput: (text) => job.out.push(text),
      // A job may be a dev server: a sandbox forwards the ports it listens on to the host.
      serve: true,
      onServe: (n) => {
        if (n.state === "forwarded" && n.address) job.served.set(n.port, n.address);
        else job.served.delete(n.port);
        if (n.state === "taken") job.taken.set(n.port, n.detail ?? "it is taken");
        this.onServe(job, n);
      },
    }).then(
      (r) => ended({ exitCode: r.exitCode, signal: r.signal, state: job.stoppedBy ? "killed" : "exited", ...(r.sandbox ? { sandbox: r.sandbox } : {}) }),
      (err: unknown) => ended({ state: "failed", error: err instanceof Error ? err.message : String(err) }),
    );
    return job;
  }

  /** Stop a running job (SIGTERM to its process group, SIGKILL after the core's grace) and wait,
   *  bounded, until it has ended. True when it has. */
  async kill(job: Job, by: Stopper): Promise<boolean> {
    if (job.state !== "running") return true;
    job.stoppedBy ??= by;
    job.stop();
    let timer: NodeJS.Timeout | undefined;
    const ended = await Promise.race([
      job.done.then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), KILL_WAIT_MS);
        timer.unref();
      }),
    ]);
    clearTimeout(timer);
    return ended;
  }

  /** Stop every running job (the session ended). */
  async killAll(by: Stopper): Promise<void> {
    await Promise.all(this.running().map((j) => this.kill(j, by)));
  }

  /** Keep at most `keepFinished` finished jobs (with their output): the oldest go first. */
  private forgetOld(): void {
    const finished = this.list().filter((j) => j.state !== "running");
    for (const j of finished.slice(0, Math.max(0, finished.length - this.limits.keepFinished))) this.jobs.delete(j.id);
  }
}
