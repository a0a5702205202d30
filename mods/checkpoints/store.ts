// The checkpoint store of one session, beside its transcript: `<sessions>/<id>.checkpoints/`
// (folder 0700) with `objects/<sha256>` (file contents, 0600, content-addressed: a content
// saved once is never saved again, so a file that did not change costs nothing) and
// `journal` (JSON lines, 0600, appended): per turn, what each touched path was before the turn's first
// change to it, what it was when the turn ended, what could not be seen, and the turn's
// prompt and cost; then reverts (undo, rewind of files), rewinds of the conversation and drops.
//
// Bound: when the objects add up to more than `maxBytes`, the oldest turns' file checkpoints
// are dropped (their objects deleted unless a kept turn shares them) until the store fits or
// only the latest turn is left; the caller says so. A dropped turn can no longer be restored.

import { chmodSync, closeSync, existsSync, fstatSync, ftruncateSync, mkdirSync, openSync, readFileSync, readSync, readdirSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { sha256, type Entry } from "./files.js";

export type LogRecord =
  | { t: "touch"; turn: number; path: string; before: Entry | null }
  | { t: "after"; turn: number; path: string; state: string | null }
  | { t: "unseen"; turn: number; what: string }
  | { t: "turn"; turn: number; prompt: string; costUsd: number; at: string }
  | { t: "revert"; turns: number[]; at: string }
  | { t: "rewound"; turns: number[]; to: number; at: string }
  | { t: "drop"; turns: number[]; bytes: number; at: string }
  /** A note for the model's next turn (after an undo or a rewind), and that it was given:
   *  kept here so a rewind from the shell reaches the next `deepcode -c`. */
  | { t: "note"; text: string }
  | { t: "noted" };

export interface TurnInfo {
  turn: number;
  prompt: string;
  costUsd: number;
  /** Each touched path's state before the turn's first change to it. */
  before: Map<string, Entry | null>;
  /** Each touched path's state when the turn ended (stateOf), once it ended. */
  after: Map<string, string | null>;
  unseen: string[];
  /** Its file changes were put back (undo, or a rewind of files). */
  reverted: boolean;
  /** A rewind took it out of the conversation. */
  rewound: boolean;
  /** Its file checkpoints were dropped by the bound. */
  dropped: boolean;
  /** Journal lines of this turn that could not be read (torn, garbled): what they recorded
   *  (a path's state before or after the turn) is unknown, so it cannot be put back. */
  damaged?: number[];
}

export class CheckpointStore {
  readonly dir: string;
  private readonly objectsDir: string;
  private readonly logFile: string;
  readonly turns = new Map<number, TurnInfo>();
  private readonly sizes = new Map<string, number>();
  private pending: string[] = [];
  /** Damaged journal lines whose turn cannot be told: they may hold any turn's changes. */
  readonly damagedAnywhere: number[] = [];

  constructor(sessionsDir: string, sessionId: string, readonly maxBytes: number) {
    if (!/^[A-Za-z0-9_.-]+$/.test(sessionId)) throw new Error(`not a session id: '${sessionId}'`);
    this.dir = join(sessionsDir, `${sessionId}.checkpoints`);
    this.objectsDir = join(this.dir, "objects");
    this.logFile = join(this.dir, "journal");
    this.load();
  }

  /** The turn's record, created when first needed. */
  turn(n: number): TurnInfo {
    let t = this.turns.get(n);
    if (!t) this.turns.set(n, (t = { turn: n, prompt: "", costUsd: 0, before: new Map(), after: new Map(), unseen: [], reverted: false, rewound: false, dropped: false, damaged: [] }));
    return t;
  }

  /** The latest turn number recorded. */
  get lastTurn(): number {
    return Math.max(0, ...this.turns.keys());
  }

  touched(turn: number, path: string): boolean {
    return this.turns.get(turn)?.before.has(path) ?? false;
  }

  /** The state of `path` before `turn` first changed it (its content saved already). */
  touch(turn: number, path: string, before: Entry | null): void {
    if (this.touched(turn, path)) return;
    this.append({ t: "touch", turn, path, before }); // on disk first: a later rewind reads it
    this.turn(turn).before.set(path, before);
  }

  after(turn: number, path: string, state: string | null): void {
    this.turn(turn).after.set(path, state);
    this.append({ t: "after", turn, path, state });
  }

  unseen(turn: number, what: string): void {
    const t = this.turn(turn);
    if (t.unseen.includes(what)) return;
    this.append({ t: "unseen", turn, what });
    t.unseen.push(what);
  }

  ended(turn: number, prompt: string, costUsd: number): void {
    Object.assign(this.turn(turn), { prompt, costUsd });
    this.append({ t: "turn", turn, prompt, costUsd, at: new Date().toISOString() });
  }

  reverted(turns: number[]): void {
    for (const n of turns) this.turn(n).reverted = true;
    this.append({ t: "revert", turns, at: new Date().toISOString() });
  }

  rewound(turns: number[], to: number): void {
    for (const n of turns) this.turn(n).rewound = true;
    this.append({ t: "rewound", turns, to, at: new Date().toISOString() });
  }

  note(text: string): void {
    this.pending.push(text);
    this.append({ t: "note", text });
  }

  /** The notes not yet given to the model; they count as given from here. */
  takeNotes(): string[] {
    if (this.pending.length === 0) return [];
    const out = this.pending.splice(0);
    this.append({ t: "noted" });
    return out;
  }

  /** Save a file's bytes; its hash names it. Saving the same bytes again writes nothing. */
  save(data: Buffer): string {
    const hash = sha256(data);
    if (this.sizes.has(hash)) return hash;
    this.ensure();
    const file = join(this.objectsDir, hash);
    const tmp = `${file}.${process.pid}.tmp`;
    try {
      writeFileSync(tmp, data, { mode: 0o600 });
      renameSync(tmp, file);
    } catch (err) {
      rmSync(tmp, { force: true });
      throw err;
    }
    this.sizes.set(hash, data.length);
    return hash;
  }

  /** A saved content, checked against its name: a changed object (another process, a command
   *  that reached the store) is refused rather than restored. */
  read(hash: string): Buffer {
    let data: Buffer;
    try {
      data = readFileSync(join(this.objectsDir, hash));
    } catch {
      throw new Error(`the checkpoint of this file is gone from ${this.objectsDir} (${hash.slice(0, 12)})`);
    }
    if (sha256(data) !== hash) throw new Error(`the checkpoint of this file was changed since it was saved (${join(this.objectsDir, hash)}): not restored`);
    return data;
  }

  get bytes(): number {
    let n = 0;
    for (const s of this.sizes.values()) n += s;
    return n;
  }

  /** Drop the oldest turns' file checkpoints until the store fits (keeping the latest turn).
   *  Returns the turns dropped and the bytes freed (none when it fits). */
  enforceBound(): { turns: number[]; bytes: number } {
    const dropped: number[] = [];
    const before = this.bytes;
    const order = [...this.turns.values()].filter((t) => !t.dropped && t.before.size > 0).sort((a, b) => a.turn - b.turn);
    while (this.bytes > this.maxBytes && order.length > 1) {
      const t = order.shift()!;
      t.dropped = true;
      dropped.push(t.turn);
      this.collect();
    }
    if (dropped.length === 0) return { turns: [], bytes: 0 };
    const freed = before - this.bytes;
    this.append({ t: "drop", turns: dropped, bytes: freed, at: new Date().toISOString() });
    return { turns: dropped, bytes: freed };
  }

  /** Delete objects no kept turn refers to. */
  private collect(): void {
    const used = new Set<string>();
    for (const t of this.turns.values()) {
      if (t.dropped) continue;
      for (const e of t.before.values()) if (e?.kind === "file") used.add(e.hash);
    }
    for (const hash of [...this.sizes.keys()]) {
      if (used.has(hash)) continue;
      try {
        unlinkSync(join(this.objectsDir, hash));
      } catch {
        // already gone: nothing to free
      }
      this.sizes.delete(hash);
    }
  }

  private ensure(): void {
    if (existsSync(this.objectsDir)) return;
    mkdirSync(this.objectsDir, { recursive: true, mode: 0o700 });
    chmodSync(this.dir, 0o700);
    chmodSync(this.objectsDir, 0o700);
  }

  /** One journal line, whole or not at all: a write the disk refuses part-way is cut back off
   *  (so no torn line is left to swallow the next), and the error reaches the caller. */
  private append(r: LogRecord): void {
    this.ensure();
    const fd = openSync(this.logFile, "a+", 0o600);
    try {
      const size = fstatSync(fd).size;
      // A line torn by a crash must not swallow the next record.
      const last = Buffer.alloc(1);
      const lead = size > 0 && readSync(fd, last, 0, 1, size - 1) === 1 && last[0] !== 0x0a ? "\n" : "";
      const bytes = Buffer.from(`${lead}${JSON.stringify(r)}\n`);
      let off = 0;
      try {
        while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
      } catch (err) {
        if (off > 0) ftruncateSync(fd, size);
        throw err;
      }
    } finally {
      closeSync(fd);
    }
  }

  private load(): void {
    let text: string;
    try {
      text = readFileSync(this.logFile, "utf8");
    } catch {
      return; // a session without checkpoints yet
    }
    const lines = text.split("\n");
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      if (!line.trim()) continue;
      let r: LogRecord | undefined;
      try {
        r = JSON.parse(line) as LogRecord;
      } catch {
        r = undefined;
      }
      if (r && typeof r === "object" && typeof r.t === "string") {
        this.apply(r);
        continue;
      }
      // A torn or garbled line: what it held is lost, the rest stands. A line that may have
      // recorded a file's state is kept in mind, so nothing later claims that file is back.
      const type = /^\{"t":"([a-z]+)"/.exec(line)?.[1];
      if (type !== undefined && !["touch", "after", "unseen"].includes(type)) continue;
      const turn = /"turn":(\d+)/.exec(line)?.[1];
      if (turn !== undefined) (this.turn(Number(turn)).damaged ??= []).push(i + 1);
      else this.damagedAnywhere.push(i + 1);
    }
    try {
      for (const name of readdirSync(this.objectsDir)) if (/^[0-9a-f]{64}$/.test(name)) this.sizes.set(name, statSync(join(this.objectsDir, name)).size);
    } catch {
      // no objects folder: nothing saved yet
    }
  }

  private apply(r: LogRecord): void {
    switch (r.t) {
      case "touch":
        if (!this.turn(r.turn).before.has(r.path)) this.turn(r.turn).before.set(r.path, r.before);
        return;
      case "after":
        this.turn(r.turn).after.set(r.path, r.state);
        return;
      case "unseen":
        this.turn(r.turn).unseen.push(r.what);
        return;
      case "turn":
        Object.assign(this.turn(r.turn), { prompt: r.prompt, costUsd: r.costUsd });
        return;
      case "revert":
        for (const n of r.turns) this.turn(n).reverted = true;
        return;
      case "rewound":
        for (const n of r.turns) this.turn(n).rewound = true;
        return;
      case "drop":
        for (const n of r.turns) this.turn(n).dropped = true;
        return;
      case "note":
        this.pending.push(r.text);
        return;
      case "noted":
        this.pending = [];
        return;
    }
  }
}
