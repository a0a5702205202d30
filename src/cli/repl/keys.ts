// Input while a turn runs. The prompt's readline is closed during a turn; stdin is in raw mode
// and read here, so Ctrl-C interrupts at once (raw mode turns off the terminal's own SIGINT).
//
// What arrives in one read is split into keys (a character, an escape sequence, a bracketed
// paste as one key), so `y⏎` typed fast, sent by tmux or over SSH is two keys, not one string:
// - A question (y/a/n, the budget prompt, the tier chooser) is answered by the first key typed
//   after its answers were shown that it accepts; an Enter right after the answering key is
//   consumed. Its answers are shown only after a short grace period (ANSWER_GRACE_MS) from the
//   moment the question opened: a key arriving in that time was meant for what was on screen
//   before (an Enter for the last question, the tail of some typing), so it stays type-ahead and
//   never answers this question.
//   The tier chooser accepts only its own keys (Enter, 1–4, Esc); other typing is not an answer.
//   An Enter that a question does not take (a permission question takes only y, a, n and
//   Esc) is a stray key: it answers nothing and is dropped, never kept as type-ahead.
// - After a cancel that puts the prompt back to be edited (Esc at the tier chooser), an Enter
//   arriving within QUIET_ENTER_MS is dropped (`quietEnters`; the prompt drops one too): a
//   quick second Enter was meant for the question, never a send of the prompt again.
// - Everything else is type-ahead: kept, in order, and handed to the next prompt (as in a shell).
//   Keys typed before a question was asked stay type-ahead: they never answer it.
// - Ctrl-C interrupts at once and drops the type-ahead.
// - Ctrl-O calls `onExpand` (the REPL shows the last tool call's full output); it is never
//   type-ahead and never an answer.

export type Key = { kind: "key"; key: string } | { kind: "paste"; text: string } | { kind: "timeout" } | { kind: "interrupt" };

export const PASTE_START = "\x1b[200~";
export const PASTE_END = "\x1b[201~";
export const ENTER = "\r";
export const ESC = "\x1b";
export const CTRL_O = "\x0f";

/** Split terminal input into keys. Returns the keys and what is left of an unfinished escape
 *  sequence or paste, to be prefixed to the next read. */
export function splitKeys(s: string): { keys: string[]; rest: string } {
  const keys: string[] = [];
  let i = 0;
  while (i < s.length) {
    if (s.startsWith(PASTE_START, i)) {
      const end = s.indexOf(PASTE_END, i + PASTE_START.length);
      if (end < 0) return { keys, rest: s.slice(i) };
      keys.push(s.slice(i, end + PASTE_END.length));
      i = end + PASTE_END.length;
      continue;
    }
    const c = s[i];
    if (c === ESC) {
      if (i + 1 >= s.length) {
        keys.push(ESC); // a lone Esc (a sequence is sent in one write, so nothing follows it)
        i++;
        continue;
      }
      const next = s[i + 1];
      if (next === "[" || next === "O") {
        let j = i + 2;
        while (j < s.length && !(s.charCodeAt(j) >= 0x40 && s.charCodeAt(j) <= 0x7e)) j++;
        if (j >= s.length) return { keys, rest: s.slice(i) };
        keys.push(s.slice(i, j + 1));
        i = j + 1;
        continue;
      }
      if (next === "\r" || next === "\n") {
        keys.push(ESC); // Esc, then Enter at once (arriving in one read): two keys, not Alt+Enter
        i++;
        continue;
      }
      keys.push(s.slice(i, i + 2)); // Alt+key
      i += 2;
      continue;
    }
    if (c === "\r" && s[i + 1] === "\n") {
      keys.push(ENTER);
      i += 2;
      continue;
    }
    const cp = s.codePointAt(i) ?? 0;
    const ch = String.fromCodePoint(cp);
    keys.push(ch === "\n" ? ENTER : ch);
    i += ch.length;
  }
  return { keys, rest: "" };
}

/** How long after a question opens its answers appear and keys start to count as answers.
 *  Shorter than a person's reaction to a new question; longer than a key already on its way. */
export const ANSWER_GRACE_MS = 400;

/** How long after a cancel an Enter is taken as a stray one (a person's second press comes
 *  within a second; a deliberate send after editing, later). */
export const QUIET_ENTER_MS = 1000;

export interface AskOptions {
  /** Answered "timeout" when nothing it takes is typed in this time after the answers show. */
  timeoutMs?: number;
  /** Which keys answer (any by default); other keys stay type-ahead. */
  accepts?: (k: string) => boolean;
  /** Writes the answers line; called when keys start to count (after the grace period). */
  show?: () => void;
}

export function isEnter(k: string): boolean {
  return k === "\r" || k === "\n";
}

interface Waiting {
  resolve: (k: Key) => void;
  accepts: (k: string) => boolean;
  /** Keys in the buffer before this index were typed before the question: not answers. */
  from: number;
  /** A key of a line being typed (a form field): no Enter is consumed after it. */
  line: boolean;
  /** Still in the grace period: no key answers yet. */
  arming: boolean;
}

export class TurnKeys {
  private onInterrupt?: () => void;
  private waiting?: Waiting;
  private timer?: ReturnType<typeof setTimeout>;
  private buffer: string[] = [];
  private rest = "";
  private swallowEnter = false;
  /** Until this time (Date.now()) an Enter is dropped (quietEnters). */
  private quietUntil = 0;
  private readonly onData = (data: Buffer | string): void => this.data(data.toString());
  /** Ctrl-O while keys are read (a turn, a command that may ask). */
  onExpand?: () => void;

  constructor(private readonly input: NodeJS.ReadStream = process.stdin, private readonly graceMs = ANSWER_GRACE_MS) {}

  /** A question is open (waiting for its answer, or in its grace period). */
  get asking(): boolean {
    return this.waiting !== undefined;
  }

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

  /** Wait for a key typed after the answers are shown (`o.show`, after the grace period) that
   *  `o.accepts` takes (any key by default); a timeout or Ctrl-C answers instead. Enter is "\r". */
  ask(o: AskOptions = {}): Promise<Key> {
    return this.open(false, o);
  }

  /** The next key of a line being typed (a form field), Enter included. The first key is one
   *  typed after the field shows (`show`, after the grace period), as for ask(); each later one
   *  follows the key before it, even when they arrived in one read ("Ada Lovelace" sent at
   *  once is the whole line, not "A"). `grace` false: a field after another one, whose first
   *  key may follow the Enter that ended the field before. */
  lineKey(first: boolean, show?: () => void, grace = true): Promise<Key> {
    if (first) return this.open(true, { show }, grace);
    this.answer({ kind: "interrupt" });
    this.swallowEnter = false;
    return new Promise((resolve) => {
      this.waiting = { resolve, accepts: () => true, from: this.lineAt, line: true, arming: false };
      this.pump();
    });
  }

  private open(line: boolean, o: AskOptions, grace = true): Promise<Key> {
    this.answer({ kind: "interrupt" }); // a question left open is over
    this.swallowEnter = false;
    return new Promise((resolve) => {
      const w: Waiting = { resolve, accepts: o.accepts ?? (() => true), from: Infinity, line, arming: true };
      this.waiting = w;
      const arm = (): void => {
        if (this.waiting !== w) return; // answered (interrupted) meanwhile
        w.arming = false;
        w.from = this.buffer.length; // what came in the grace period is type-ahead
        this.swallowEnter = false;
        o.show?.();
        if (o.timeoutMs !== undefined) this.timer = setTimeout(() => this.answer({ kind: "timeout" }), o.timeoutMs);
        this.pump();
      };
      if (grace && this.graceMs > 0) this.timer = setTimeout(arm, this.graceMs);
      else arm();
    });
  }

  /** Where the last key of a line was taken from the buffer: the next one stands there now. */
  private lineAt = 0;

  /** The type-ahead, raw (pastes with their markers), for the next prompt; the buffer empties. */
  takeTypeahead(): string {
    const text = this.buffer.join("") + this.rest;
    this.buffer = [];
    this.rest = "";
    return text;
  }

  /** Put text back in front of the type-ahead (a cancelled prompt goes back to be edited). */
  unshift(text: string): void {
    this.buffer.unshift(text);
  }

  /** A question was cancelled and the prompt put back: Enters already typed after it, and
   *  those arriving in the next `ms`, are stray and dropped (the prompt is not sent again). */
  quietEnters(ms = QUIET_ENTER_MS): void {
    this.quietUntil = Date.now() + ms;
    this.buffer = this.buffer.filter((k) => !isEnter(k));
  }

  /** How long Enters are still dropped (for the next prompt, which goes on dropping them). */
  get quietLeft(): number {
    return Math.max(0, this.quietUntil - Date.now());
  }

  private data(s: string): void {
    if (s.includes("\u0003")) {
      this.buffer = [];
      this.rest = "";
      this.answer({ kind: "interrupt" });
      this.onInterrupt?.();
      return;
    }
    const { keys, rest } = splitKeys(this.rest + s);
    this.rest = rest;
    for (const k of keys) {
      if (k === CTRL_O) {
        this.onExpand?.();
        continue;
      }
      if (isEnter(k) && Date.now() < this.quietUntil) continue;
      if (this.swallowEnter && isEnter(k)) {
        this.swallowEnter = false;
        continue;
      }
      this.swallowEnter = false;
      this.buffer.push(k);
    }
    this.pump();
  }

  /** Give the waiting question the first key typed since it was asked, if it takes it. Only the
   *  first: once other typing stands in front, later keys are that typing's, not answers. */
  private pump(): void {
    const w = this.waiting;
    if (!w || w.arming) return;
    // A line typed in front of the answer and ended with Enter is the next prompt's: the key
    // after it may answer (`/status⏎` typed at the chooser, then Enter to accept).
    while (this.buffer.length > w.from && !w.accepts(this.buffer[w.from])) {
      // A lone Enter the question does not take is stray: it answers nothing and is dropped.
      if (isEnter(this.buffer[w.from])) {
        this.buffer.splice(w.from, 1);
        continue;
      }
      // A paste the question does not take is text for the prompt, whole: it stays type-ahead.
      if (this.buffer[w.from].startsWith(PASTE_START)) {
        w.from++;
        continue;
      }
      const end = this.buffer.findIndex((k, i) => i > w.from && isEnter(k));
      if (end < 0) return;
      w.from = end + 1;
    }
    if (this.buffer.length <= w.from) return;
    const k = this.buffer[w.from];
    this.buffer.splice(w.from, 1);
    if (w.line) {
      this.lineAt = w.from;
      this.answer(k.startsWith(PASTE_START) ? { kind: "paste", text: k.slice(PASTE_START.length, -PASTE_END.length) } : { kind: "key", key: k });
      return;
    }
    this.swallowEnter = !isEnter(k);
    // An Enter that came in the same read as the answer is consumed now.
    if (this.swallowEnter && this.buffer.length > w.from && isEnter(this.buffer[w.from])) {
      this.buffer.splice(w.from, 1);
      this.swallowEnter = false;
    }
    this.answer(k.startsWith(PASTE_START) ? { kind: "paste", text: k.slice(PASTE_START.length, -PASTE_END.length) } : { kind: "key", key: k });
  }

  private answer(k: Key): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const w = this.waiting;
    this.waiting = undefined;
    w?.resolve(k);
  }
}
