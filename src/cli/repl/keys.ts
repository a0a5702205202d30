// Input while a turn runs. The prompt's readline is closed during a turn; stdin is in raw
// mode and read here, so Ctrl-C interrupts at once (raw mode turns off the terminal's own
// SIGINT) and a question (y/a/n, the tier chooser) reads one key. Other typing is ignored:
// deepcode is line-oriented and does not queue input behind a running turn.

export type Key = { kind: "key"; key: string } | { kind: "timeout" } | { kind: "interrupt" };

export class TurnKeys {
  private onInterrupt?: () => void;
  private waiting?: (k: Key) => void;
  private timer?: ReturnType<typeof setTimeout>;
  private readonly onData = (data: Buffer): void => this.data(data.toString("utf8"));

  constructor(private readonly input: NodeJS.ReadStream = process.stdin) {}

  /** Keys are being read (a turn, or a command that may ask, is running). */
  get active(): boolean {
    return this.onInterrupt !== undefined;
  }

  /** Start reading keys for a turn; Ctrl-C calls `onInterrupt`. */
  start(onInterrupt: () => void): void {
    this.onInterrupt = onInterrupt;
    if (this.input.isTTY) this.input.setRawMode(true);
    this.input.on("data", this.onData);
    this.input.resume();
  }

  stop(): void {
    this.input.off("data", this.onData);
    if (this.input.isTTY) this.input.setRawMode(false);
    this.input.pause();
    this.onInterrupt = undefined;
    this.answer({ kind: "interrupt" });
  }

  /** Wait for one key (Enter is "\r"); a timeout or Ctrl-C answers instead. */
  ask(timeoutMs?: number): Promise<Key> {
    this.answer({ kind: "interrupt" }); // a question left open is over
    return new Promise((resolve) => {
      this.waiting = resolve;
      if (timeoutMs !== undefined) this.timer = setTimeout(() => this.answer({ kind: "timeout" }), timeoutMs);
    });
  }

  private data(s: string): void {
    if (s.includes("\u0003")) {
      this.answer({ kind: "interrupt" });
      this.onInterrupt?.();
      return;
    }
    if (this.waiting) this.answer({ kind: "key", key: s === "\n" ? "\r" : s });
  }

  private answer(k: Key): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const w = this.waiting;
    this.waiting = undefined;
    w?.(k);
  }
}
