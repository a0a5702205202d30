// The process's view of the usage ledger: what earlier processes spent this month (read once,
// on first need) plus every request this process appends (counted as it is appended). Budgets
// and `/cost` read totals from here; the file is never re-read turn by turn.
//
// Contracts:
// - Appending never fails a turn: a write error is reported once and the request still counts
//   towards this session's spending (budgets see it even when the disk does not). A line that
//   could not be written (a full disk) is kept and written, in order, before the next one and
//   at `flush` (the process's end), so the ledger catches up once space is back.
// - Writes go one at a time, in order (one queue), so a turn's lines keep their order.
// - Another deepcode running at the same time appends to the same file; its spending is seen
//   by this process at its next start, not live.
// - Reading fails closed for budgets: when the ledger exists but cannot be read, `readError`
//   says why, and a set budget refuses turns rather than guess the spending.

import {
  appendLedger, ledgerPath, parseLedger, periodOf, readLedgerText, spending, summarise,
  type LedgerRecord, type SummaryRow,
} from "../index.js";

export interface BookNotice {
  level: "info" | "warn";
  code: string;
  message: string;
}

const keyOf = (r: LedgerRecord): string => `${r.session}\u0000${r.agentSession ?? ""}\u0000${r.turn}\u0000${r.step ?? ""}\u0000${r.time}`;

export class Book {
  private earlier?: LedgerRecord[];
  private readonly mine: LedgerRecord[] = [];
  private queue: Promise<void> = Promise.resolve();
  private writeFailed = false;
  /** Lines not on disk yet (queued, or refused by the disk), oldest first. */
  private readonly unwritten: LedgerRecord[] = [];
  readError?: string;

  constructor(
    private readonly home: string,
    private readonly notify: (n: BookNotice) => void,
  ) {}

  /** Reads the ledger once: this month's records (local time) of earlier processes. */
  private load(now: Date): LedgerRecord[] {
    if (this.earlier) return this.earlier;
    const path = ledgerPath(this.home);
    let text = "";
    try {
      text = readLedgerText(path);
    } catch (err) {
      this.readError = `cannot read the usage ledger: ${(err as Error).message}`;
      this.notify({ level: "warn", code: "ledger-unreadable", message: this.readError });
    }
    const read = parseLedger(text);
    if (read.skipped.length) {
      this.notify({ level: "warn", code: "ledger-skipped", message: `skipped ${read.skipped.length} unreadable line(s) of ${path} (first: line ${read.skipped[0].line}, ${read.skipped[0].reason})` });
    }
    const month = periodOf(now, "month");
    // Lines this process already appended are counted in `mine`; skip them here.
    const own = new Set(this.mine.map(keyOf));
    this.earlier = read.records.filter((r) => periodOf(r.time, "month") >= month && !own.has(keyOf(r)));
    return this.earlier;
  }

  /** Every known record of this month (earlier processes and this one). */
  records(now: Date): LedgerRecord[] {
    return [...this.load(now), ...this.mine];
  }

  spent(now: Date): ReturnType<typeof spending> {
    return spending(this.records(now), now);
  }

  /** Totals of one session (with the part its subagents spent), today, and this month. */
  totals(now: Date, session: string): { session: SummaryRow; agents: SummaryRow; today: SummaryRow; month: SummaryRow } {
    const all = this.records(now);
    const day = periodOf(now, "day");
    const month = periodOf(now, "month");
    const mine = all.filter((r) => r.session === session);
    return {
      session: summarise(mine, { by: "month" }).total,
      agents: summarise(mine.filter((r) => r.agent !== undefined), { by: "month" }).total,
      today: summarise(all.filter((r) => periodOf(r.time, "day") === day), { by: "day" }).total,
      month: summarise(all.filter((r) => periodOf(r.time, "month") === month), { by: "month" }).total,
    };
  }

  /** Counts the record now and queues its line. Resolves when written (or kept for later). */
  append(record: LedgerRecord): Promise<void> {
    this.mine.push(record);
    this.unwritten.push(record);
    return this.drain();
  }

  /** Writes every line still unwritten, in order; stops at the first the disk refuses. */
  private drain(): Promise<void> {
    this.queue = this.queue.then(async () => {
      while (this.unwritten.length) {
        try {
          await appendLedger(this.home, this.unwritten[0]);
        } catch (err) {
          if (this.writeFailed) return;
          this.writeFailed = true;
          this.notify({
            level: "warn",
            code: "ledger-write-failed",
            message: `could not write the usage ledger ${ledgerPath(this.home)} (${(err as Error).message}); this session's spending is still counted, and the lines are kept and written when the ledger can be written again`,
          });
          return;
        }
        this.unwritten.shift();
      }
    });
    return this.queue;
  }

  /** Waits for every queued line, trying once more those the disk refused. */
  flush(): Promise<void> {
    return this.drain();
  }
}
