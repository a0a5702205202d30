// What the export holds between flushes: cumulative counters (one point per name and attribute
// set, since the process started) and a bounded queue of events (log records). Both are
// bounded: past MAX_SERIES distinct series or MAX_QUEUED waiting events, new ones are dropped
// and counted, never blocking whoever records.

export type Attrs = Record<string, string | number | boolean>;

export interface Series {
  name: string;
  unit: string;
  description: string;
  attrs: Attrs;
  value: number;
}

export interface LogRecord {
  timeNs: bigint;
  name: string;
  attrs: Attrs;
}

export const MAX_SERIES = 2000;
export const MAX_QUEUED = 1000;

/** deepcode's metrics: Claude Code's shapes (`claude_code.X` is `deepcode.X`) where one fits. */
export const METRICS: Record<string, { unit: string; description: string }> = {
  "deepcode.session.count": { unit: "1", description: "sessions started" },
  "deepcode.api_request.count": { unit: "1", description: "model requests" },
  "deepcode.token.usage": { unit: "tokens", description: "tokens by type: input (cache miss), cacheRead (cache hit), output" },
  "deepcode.cost.usage": { unit: "USD", description: "cost of the requests, as deepcode priced them" },
  "deepcode.cache.savings": { unit: "USD", description: "what cache hits spared against paying for them as misses" },
  "deepcode.estimate.usage": { unit: "USD", description: "the estimate shown before a turn (midpoint), for turns that had one" },
  "deepcode.estimate.actual": { unit: "USD", description: "what those same turns cost" },
  "deepcode.tool.decision": { unit: "1", description: "tool decisions by outcome and deciding layer" },
  "deepcode.error.count": { unit: "1", description: "model request errors by kind" },
};

export class Store {
  readonly startNs = nowNs();
  private readonly series = new Map<string, Series>();
  private queue: LogRecord[] = [];
  dropped = 0;

  add(name: string, value: number, attrs: Attrs): void {
    if (!(value > 0) || !Number.isFinite(value)) return;
    const key = `${name}\u0000${JSON.stringify(Object.entries(attrs).sort((a, b) => (a[0] < b[0] ? -1 : 1)))}`;
    const s = this.series.get(key);
    if (s) {
      s.value += value;
      return;
    }
    if (this.series.size >= MAX_SERIES) {
      this.dropped++;
      return;
    }
    const meta = METRICS[name];
    this.series.set(key, { name, unit: meta?.unit ?? "1", description: meta?.description ?? "", attrs: { ...attrs }, value });
  }

  event(name: string, attrs: Attrs): void {
    if (this.queue.length >= MAX_QUEUED) {
      this.dropped++;
      return;
    }
    this.queue.push({ timeNs: nowNs(), name, attrs: { ...attrs } });
  }

  /** Every series as it stands (cumulative). */
  snapshot(): Series[] {
    return [...this.series.values()].map((s) => ({ ...s, attrs: { ...s.attrs } }));
  }

  get hasSeries(): boolean {
    return this.series.size > 0;
  }

  /** The waiting events, handed over (the queue starts empty again). */
  take(): LogRecord[] {
    const q = this.queue;
    this.queue = [];
    return q;
  }
}

export function nowNs(): bigint {
  return BigInt(Date.now()) * 1_000_000n;
}
