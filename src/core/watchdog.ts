// One timer for every running hook. Each hook's frame holds the time it has left; the frame is
// armed while the hook itself runs and paused while it waits inside `next`, so a hook is only
// charged for its own time. A single unref'd timer wakes at the earliest deadline; arming a frame
// whose deadline is later than the planned wake-up costs no timer call, which keeps pass-through
// hooks cheap.

export interface Frame {
  deadline: number;
  remaining: number;
  expire(): void;
}

export class Watchdog {
  private readonly active = new Set<Frame>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private wakeAt = Infinity;

  start(f: Frame): void {
    if (f.remaining === Infinity) return;
    f.deadline = performance.now() + f.remaining;
    this.active.add(f);
    if (f.deadline < this.wakeAt) this.schedule(f.deadline);
  }

  pause(f: Frame): void {
    if (this.active.delete(f)) f.remaining = Math.max(0, f.deadline - performance.now());
  }

  stop(f: Frame): void {
    this.active.delete(f);
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
    const expired: Frame[] = [];
    for (const f of this.active) {
      if (f.deadline <= now) expired.push(f);
      else if (f.deadline < next) next = f.deadline;
    }
    for (const f of expired) {
      this.active.delete(f);
      f.expire();
    }
    if (next !== Infinity) this.schedule(next);
  }
}
