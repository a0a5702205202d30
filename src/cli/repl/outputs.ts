// What the REPL's tool calls returned, for a person to read in full after a call's line has
// collapsed to its summary: `/output [N]` and Ctrl-O (the last call). Calls are numbered from 1
// in the order they end, per session opened in this REPL (`/new`, `/resume` start again at 1);
// the last KEPT_CALLS are kept, each as the text the model received.
//
// Shown bounded and inert: at most SHOW_LINES lines (the first HEAD_LINES and the last ones, the
// count cut between them said where it is), each line cut at SHOW_LINE_CHARS characters, and
// every control or bidi character shown as its escape (the output is a command's or a server's
// text: it never moves the cursor or retitles the window).

import type { StreamEvent } from "../../contract/index.js";
import { inert, inertText } from "../../lib/inert.js";
import type { Style } from "../render/style.js";

type ToolEnd = Extract<StreamEvent, { type: "tool.end" }>;

export const KEPT_CALLS = 100;
export const SHOW_LINES = 200;
export const HEAD_LINES = 50;
export const SHOW_LINE_CHARS = 400;

interface Kept {
  n: number;
  tool: string;
  summary: string;
  content: string;
  isError: boolean;
}

export class ToolOutputs {
  private readonly calls: Kept[] = [];
  private count = 0;

  /** Keep a finished call's output; returns its number. */
  record(ev: ToolEnd): number {
    this.count++;
    this.calls.push({ n: this.count, tool: ev.tool, summary: ev.output.summary ?? ev.tool, content: ev.output.content, isError: ev.output.isError === true });
    if (this.calls.length > KEPT_CALLS) this.calls.shift();
    return this.count;
  }

  /** A new session: numbering starts again. */
  clear(): void {
    this.calls.length = 0;
    this.count = 0;
  }

  /** How many calls ended in this session (the last one's number). */
  get last(): number {
    return this.count;
  }

  /** The full output of call `n` (the last call without `n`), bounded and inert, or a line
   *  saying why there is none. */
  show(style: Style, n?: number): string {
    if (this.count === 0) return style("dim", "No tool call has ended since this session was opened here.");
    const want = n ?? this.count;
    if (!Number.isInteger(want) || want < 1 || want > this.count) return style("yellow", `There is no call #${String(n)}: this session's calls are #1–#${this.count}.`);
    const c = this.calls.find((k) => k.n === want);
    if (!c) return style("yellow", `Call #${want}'s output is no longer kept (the last ${KEPT_CALLS} calls are: #${this.calls[0].n}–#${this.count}).`);
    const lines = inertText(c.content).replace(/\n+$/, "").split("\n");
    const body = c.content.trim() === "" ? [style("dim", "(no output)")] : bounded(lines, style);
    const head = `── #${c.n} ${inert(c.summary)}${c.isError ? " (failed)" : ""} · ${lines.length} line${lines.length === 1 ? "" : "s"} ──`;
    return [style("bold", head), ...body, style("dim", `── end of #${c.n} ──`)].join("\n");
  }
}

/** A running call's output so far (`label`: its tool and input, inert), bounded and inert like
 *  a finished one's, under a header that says it is still running. */
export function showRunning(style: Style, label: string, output: string, ms: number): string {
  const lines = inertText(output).replace(/\n+$/, "").split("\n");
  const body = output.trim() === "" ? [style("dim", "(no output yet)")] : bounded(lines, style);
  const head = `── running: ${label} · ${Math.floor(ms / 1000)} s · ${output.trim() === "" ? "nothing printed yet" : `${lines.length} line${lines.length === 1 ? "" : "s"} so far`} ──`;
  return [style("bold", head), ...body, style("dim", "── still running (Ctrl-O again for more) ──")].join("\n");
}

/** At most SHOW_LINES lines: the first HEAD_LINES and the last ones, each cut to
 *  SHOW_LINE_CHARS; tabs become spaces, so what remains is plain text for any terminal. */
function bounded(lines: string[], style: Style): string[] {
  const cut = (l: string): string => {
    const t = l.replace(/\t/g, "  ");
    return t.length > SHOW_LINE_CHARS ? `${t.slice(0, SHOW_LINE_CHARS)}${style("dim", `… (${t.length - SHOW_LINE_CHARS} more characters)`)}` : t;
  };
  if (lines.length <= SHOW_LINES) return lines.map(cut);
  const tail = SHOW_LINES - HEAD_LINES;
  const dropped = lines.length - SHOW_LINES;
  return [
    ...lines.slice(0, HEAD_LINES).map(cut),
    style("dim", `… ${dropped} lines cut here (at most ${SHOW_LINES} are shown: the first ${HEAD_LINES} and the last ${tail}) …`),
    ...lines.slice(-tail).map(cut),
  ];
}
