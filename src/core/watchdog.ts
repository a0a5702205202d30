// Hook timing: each hook's time limit counts its own time only, not time spent inside `next`.
//
// One timer for every running hook. A hook's clock (HookClock) holds the time it has left; it
// runs while the hook itself runs and is paused while the hook waits inside `next`. A single
// unref'd timer wakes at the earliest deadline; arming a clock whose deadline is later than the
// planned wake-up costs no timer call, which keeps pass-through hooks cheap.

export const RUNNING = 0;
export const PAUSED = 1;
export const STOPPED = 2;
export type ClockState = typeof RUNNING | typeof PAUSED | typeof STOPPED;

/** One hook call's time: started on creation, paused inside `next`, stopped once answered for. */
export class HookClock {
  deadline = 0;
  state: ClockState = RUNNING;

  /** `expire` runs (once) when the hook's own time passes `remaining` ms. */
  constructor(
    private readonly dog: Watchdog,
    public remaining: number,
    readonly expire: () => void,
  ) {
    dog.arm(this);
  }

  /** The hook entered `next`: its time stands still. */
  pause(): void {
    if (this.state !== RUNNING) return;
    this.state = PAUSED;
    this.dog.disarm(this, true);
  }

  /** Its downstream settled: its time runs again (unless it was already answered for). */
  resume(): void {
    if (this.state !== PAUSED) return;
    this.state = RUNNING;
    this.dog.arm(this);
  }

  /** Stop for good; returns the state it was in (STOPPED: it had already been answered for,
   *  PAUSED: the hook returned while its downstream was still running). */
  stop(): ClockState {
    const was = this.state;
    if (was !== STOPPED) {
      this.state = STOPPED;
      this.dog.disarm(this, false);
    }
    return was;
  }
}

export class Watchdog {
  private readonly active = new Set<HookClock>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private wakeAt = Infinity;

  clock(limitMs: number, expire: () => void): HookClock {
    return new HookClock(this, limitMs, expire);
  }

  arm(c: HookClock): void {
    if (c.remaining === Infinity) return;
    c.deadline = performance.now() + c.remaining;
    this.active.add(c);
    if (c.deadline < this.wakeAt) this.schedule(c.deadline);
  }

  /** Take `c` off the watch; `keep` saves the time it has left (a pause). */
  disarm(c: HookClock, keep: boolean): void {
    if (this.active.delete(c) && keep) c.remaining = Math.max(0, c.deadline - performance.now());
  }

  private schedule(at: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.wakeAt = at;
    this.timer = setTimeout(() => this.fire(), Math.max(0, Math.ceil(at - performance.now())));
    // Unref'd: a stale wake-up must not keep a finished process alive.
    this.timer.unref();
  }

  private fire(): void {
    this.timer = undefined;
    this.wakeAt = Infinity;
    const now = performance.now();
    let next = Infinity;
    const expired: HookClock[] = [];
    for (const c of this.active) {
      if (c.deadline <= now) expired.push(c);
      else if (c.deadline < next) next = c.deadline;
    }
    for (const c of expired) {
      this.active.delete(c);
      c.expire();
    }
    if (next !== Infinity) this.schedule(next);
  }
}
