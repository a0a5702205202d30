// Hook commands that run in the background: Claude Code's `async: true` and `asyncRewake: true`.
//
// The event does not wait for them: the tool call, the prompt, the session's start go on at
// once. Each run is bounded like any hook command (its `timeout`, default 60 s, then its whole
// process tree ends), at most MAX_PER_SESSION run at once per main session (more are not
// started, and the person is told), and every run still going when its session ends is ended
// with it (session.end; deepcode's exit ends any that remain — run.ts). What a finished run
// says is read by outcome.ts (backgroundAnswer) and delivered by index.ts.

import type { HookCommand, HookEvent } from "./config.js";
import type { Outcome } from "./outcome.js";
import { short, type HookRun } from "./run.js";

/** Background runs one main session may have going at once. */
export const MAX_PER_SESSION = 16;

export interface Finished {
  /** The main session the run belongs to (a subagent's runs belong to its root session). */
  session: string;
  event: HookEvent;
  rewake: boolean;
  outcome: Outcome;
}

export class Background {
  private readonly runs = new Map<string, Set<AbortController>>();

  constructor(
    private readonly done: (f: Finished) => void,
    private readonly warn: (message: string) => void,
    /** Runs one command (index.ts: through the chain's process.launch). */
    private readonly run: (c: HookCommand, input: object, signal: AbortSignal) => Promise<HookRun>,
  ) {}

  /** Start `c` for `session`'s event; returns at once. */
  start(session: string, event: HookEvent, c: HookCommand, input: object): void {
    let set = this.runs.get(session);
    if (!set) this.runs.set(session, (set = new Set()));
    if (set.size >= MAX_PER_SESSION) {
      this.warn(`${event} hook \`${short(c.command)}\` was not started in the background: ${MAX_PER_SESSION} background hooks of this session are still running`);
      return;
    }
    const ac = new AbortController();
    set.add(ac);
    void this.run(c, input, ac.signal).then((run) => {
      set.delete(ac);
      if (run.aborted) return; // its session ended: nobody is left to tell
      this.done({ session, event, rewake: c.background === "rewake", outcome: { command: c.command, timeoutMs: c.timeoutMs, run } });
    });
  }

  /** How many runs `session` has going. */
  running(session: string): number {
    return this.runs.get(session)?.size ?? 0;
  }

  /** End every run of `session` (its session ended). */
  end(session: string): void {
    const set = this.runs.get(session);
    this.runs.delete(session);
    for (const ac of set ?? []) ac.abort();
  }
}
