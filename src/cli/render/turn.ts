// How a turn looks in the REPL. Line-oriented: model text streams as it arrives (Markdown
// subset), reasoning is dimmed and folded into one line unless `/think on`, each tool call is
// one line with its result summarised, and the turn ends with one status line. On a terminal a
// transient line (reasoning, a running tool) is redrawn in place with `\r`; everything that
// stays is plain lines, so the scrollback reads like a log. The transient line carries a clock
// (redrawn every second, so a stalled stream or a long command shows time passing) and, for a
// running command, the last line of its output so far (tool.progress); it goes when the call
// ends, leaving the call's one result line.

import type { StreamEvent, Usage } from "../../contract/index.js";
import { MarkdownStream } from "./markdown.js";
import { fit, moneyLine, tokens } from "./figures.js";
import type { Style } from "./style.js";
import { inert, inertLines, inertText } from "../../lib/inert.js";
import { CONTROL, control } from "./terminal.js";
import { briefInput } from "./progress.js";

export interface TurnView {
  out: NodeJS.WritableStream;
  style: Style;
  /** Show reasoning in full (`/think on`) instead of one folded line. */
  showThinking: boolean;
  /** Redraw transient lines in place (a TTY); otherwise nothing transient is printed. */
  live: boolean;
  /** A question is on screen: the clock does not redraw over it. */
  paused?: () => boolean;
  /** Said after a finished call's line (the REPL: how to expand its output). */
  hint?: (callId: string, output: Extract<StreamEvent, { type: "tool.end" }>["output"]) => string | undefined;
}

export interface TurnTotals {
  costUsd: number;
  usage: Usage;
}

export class TurnRenderer {
  private md: MarkdownStream;
  private transient = false;
  private reasoningChars = 0;
  private reasoningStarted = 0;
  private inText = false;
  private atLineStart = true;
  private readonly running = new Map<string, string>();
  /** The last progress a running call reported (tool.progress), shown on its line. */
  private readonly progress = new Map<string, string>();
  /** What each running call printed so far (tool.progress `output`), for Ctrl-O. */
  private readonly soFar = new Map<string, string>();
  /** When the running calls started (their line's clock). */
  private readonly started = new Map<string, number>();
  private ticker?: ReturnType<typeof setInterval>;
  /** This reply's answer text as streamed to the screen, and the repairs said of it: at its
   *  end, what the screen showed that the session does not keep is said (see unkept). */
  private streamed = "";
  private readonly repairs = new Set<string>();
  /** Notes that came while a line of the model's text was open: said at its end (note()). */
  private held: string[] = [];
  private retried = false;
  /** When the current request to the model began (the turn, the end of a round's tools, the
   *  last reply), and whether a token of it arrived yet: the clock before the first token. */
  private requestStarted = 0;
  private firstToken = false;
  /** What the transient line shows now (a redraw with the same text is skipped: no flicker). */
  private shown = "";

  constructor(private readonly v: TurnView) {
    this.md = this.markdown();
  }

  /** The model's text wraps at the terminal's width, read as each reply begins (so a resized
   *  window applies from the next reply); output that is no terminal (no columns) is not wrapped. */
  private markdown(): MarkdownStream {
    const cols = (this.v.out as NodeJS.WriteStream).columns;
    return new MarkdownStream(this.v.style, typeof cols === "number" && cols > 0 ? cols : Infinity);
  }

  handle(ev: StreamEvent): void {
    switch (ev.type) {
      case "turn.start":
        this.request();
        return this.startTicker();
      case "model.delta":
        if (ev.delta.kind !== "retry") this.firstToken = true;
        return this.delta(ev.delta);
      case "model.response":
        this.endText();
        this.unkept(ev.text, ev.dropped);
        return this.request();
      case "tool.start":
        this.endText();
        this.running.set(ev.callId, inert(`${ev.tool} ${briefInput(ev.input)}`));
        this.started.set(ev.callId, Date.now());
        return this.showRunning();
      case "tool.progress":
        if (!this.running.has(ev.callId)) return;
        this.progress.set(ev.callId, inert(progressText(ev)));
        if (ev.output !== undefined) this.soFar.set(ev.callId, ev.output);
        return this.showRunning();
      case "tool.end": {
        const label = this.running.get(ev.callId);
        this.running.delete(ev.callId);
        this.progress.delete(ev.callId);
        this.soFar.delete(ev.callId);
        this.started.delete(ev.callId);
        if (this.running.size === 0) this.request();
        const hint = this.v.hint?.(ev.callId, ev.output);
        this.line(`${this.toolLine(ev.tool, ev.output, label)}${hint ? this.v.style("dim", ` ${hint}`) : ""}`);
        // What the tool shows a person under its line (TodoWrite's checklist): the tool's text, inert.
        for (const l of ev.output.display ? inertLines(ev.output.display).split("\n") : []) this.line(this.v.style("dim", `  ${l}`));
        return this.showRunning();
      }
      case "repair":
        this.repairs.add(ev.kind);
        // At once, even inside a line: a repair marks where in the text it took effect (the
        // reasoning before a `</think>` ends there).
        return this.line(this.v.style("dim", `↻ repaired (${ev.kind}): ${inertLines(ev.detail)}`));
      case "notice":
        return this.note(this.v.style(ev.level === "info" ? "dim" : ev.level === "warn" ? "yellow" : "red", `${ev.level === "info" ? "·" : "!"} ${inertLines(ev.message)}`));
      case "turn.complete":
        this.close();
        this.endText();
        this.clearTransient();
        if (ev.stopReason !== "completed") {
          const why = ev.stopReason === "interrupted" ? "interrupted" : `${ev.stopReason}${ev.error ? `: ${inertLines(ev.error)}` : ""}`;
          this.line(this.v.style(ev.stopReason === "interrupted" ? "yellow" : "red", `■ ${why}`));
        }
        return;
      default:
        return;
    }
  }

  /** One line per finished call: ● ran; ✗ failed (with why: meta.failure, else the error's first line) or denied (with
   *  why, unless the person said no just above); ↷ suppressed by the call-storm breaker. */
  private toolLine(tool: string, o: Extract<StreamEvent, { type: "tool.end" }>["output"], label?: string): string {
    const s = this.v.style;
    // A summary and an error are the tool's (or an MCP server's, a plugin's) text: inert.
    const line = inert(o.summary ?? tool);
    if (o.meta?.outcome === "suppressed") return s("yellow", `↷ ${line}`);
    // A refusal names the call it refused (`✗ Bash rm -rf build: denied`, as a replay shows it), not only the tool.
    const refusedCall = label !== undefined && o.summary === `${tool}: denied` ? `${label}: denied` : line;
    if (o.meta?.outcome === "denied") return s("red", `✗ ${refusedCall}${o.meta.by !== "user" && typeof o.meta.reason === "string" ? ` — ${inert(o.meta.reason)}` : ""}`);
    if (!o.isError) return `${s("green", "●")} ${line}`;
    // Why it failed: the tool's own one-line reason (Bash: the failing test, the error), else
    // the first line of what it returned.
    const why = typeof o.meta?.failure === "string" ? o.meta.failure : firstLine(o.content);
    return s("red", `✗ ${line}${/interrupted/.test(line) ? "" : `: ${inert(why)}`}`);
  }

  private delta(d: Extract<StreamEvent, { type: "model.delta" }>["delta"]): void {
    if (d.kind === "reasoning") {
      if (this.v.showThinking) {
        this.clearTransient();
        this.write(this.v.style(["dim", "italic"], inertText(d.text)));
        return;
      }
      if (this.reasoningChars === 0) this.reasoningStarted = Date.now();
      if (this.requestStarted === 0) this.requestStarted = this.reasoningStarted;
      this.reasoningChars += d.text.length;
      this.showThinkingLine();
      return;
    }
    if (d.kind === "content") {
      if (!this.inText) {
        this.foldReasoning();
        this.inText = true;
      }
      // The model's text is made inert before Markdown styles it: an escape it sends is shown,
      // never obeyed (a title change, a cleared screen); the styling is deepcode's own.
      this.streamed += d.text;
      this.write(this.md.write(inertText(d.text)));
      if (this.held.length > 0 && this.betweenLines()) this.flushNotes();
      return;
    }
    if (d.kind === "retry") this.retried = true;
    if (d.kind === "retry") this.line(this.v.style("yellow", `! ${inert(d.reason)}; retrying in ${(d.delayMs / 1000).toFixed(1)} s (attempt ${d.attempt})`));
  }

  /** The screen must not silently disagree with the session: streamed text that the reply's
   *  judgement removed (reasoning before `</think>`, tool-call markup, a degenerate repetition,
   *  a failed attempt's start) is already on screen, so one calm line says how much of it the
   *  session did not keep, and why. `kept` is the answer as logged (undefined: not known). */
  private unkept(kept: string | undefined, dropped: string | undefined): void {
    const shown = this.streamed;
    const kinds = [...this.repairs];
    const retried = this.retried;
    this.streamed = "";
    this.repairs.clear();
    this.retried = false;
    if (kept === undefined || shown === kept) return;
    const n = shown.length - kept.length;
    if (n <= 0 || shown.trim() === "") return;
    // A dropped reply's reason is the notice that follows (degenerate-output): not said twice.
    if (dropped) return this.line(this.v.style("dim", `↻ ${count(n)} characters of repeated text shown above were not kept`));
    const why = kinds.includes("reasoning-in-content")
        ? "it was reasoning (before </think>), kept as reasoning, not as the answer"
        : kinds.some((k) => /markup|dsml|scaveng/.test(k))
          ? "it was a tool call written as text, taken as a call"
          : retried
            ? "it came from an attempt that failed and was sent again"
            : "the session keeps the answer without it";
    this.line(this.v.style("dim", `↻ ${count(n)} characters shown above were not kept: ${inertLines(why)}`));
  }

  /** The reasoning of this round becomes one dim line once the answer (or a tool) begins. */
  private foldReasoning(): void {
    this.clearTransient();
    if (this.reasoningChars > 0 && !this.v.showThinking) {
      const secs = ((Date.now() - this.reasoningStarted) / 1000).toFixed(1);
      this.line(this.v.style("dim", `✻ thought for ${secs} s (${this.reasoningChars} characters; /think on to show)`));
    } else if (this.v.showThinking && !this.atLineStart) this.write("\n");
    this.reasoningChars = 0;
  }

  private endText(): void {
    if (this.inText) {
      this.write(this.md.end());
      if (!this.atLineStart) this.write("\n");
      this.inText = false;
      this.md = this.markdown();
      this.flushNotes();
    } else this.foldReasoning();
  }

  /** A notice (a cache note, a warning): between the model's lines, never inside one. While a line of its
   *  text is open (streamed without its newline, or held by the Markdown renderer until its
   *  kind is known), the note waits for that line's end, or the reply's. */
  private note(text: string): void {
    if (this.inText && !this.betweenLines()) this.held.push(text);
    else this.line(text);
  }

  /** The model's text so far ends a line, and the screen shows all of it. */
  private betweenLines(): boolean {
    return this.atLineStart && (this.streamed === "" || this.streamed.endsWith("\n")) && this.md.idle();
  }

  private flushNotes(): void {
    const held = this.held;
    this.held = [];
    for (const l of held) this.line(l);
  }

  /** A request to the model begins now (its clock starts; no token of it yet). */
  private request(): void {
    this.requestStarted = Date.now();
    this.firstToken = false;
  }

  /** The clock counts from the request's start, before its first token too. */
  private showThinkingLine(): void {
    this.transientLine(this.v.style("dim", `✻ thinking… (${this.reasoningChars} characters · ${seconds(Date.now() - this.requestStarted)})`));
  }

  /** Waiting for a request's first token: shown once a second has passed (a quick reply
   *  never flashes a line), then redrawn each second. */
  private showWaiting(): void {
    const ms = Date.now() - this.requestStarted;
    if (ms >= 1000) this.transientLine(this.v.style("dim", `✻ thinking… (${seconds(ms)})`));
  }

  /** The call running longest, with what it printed so far ("" before its first line), or
   *  undefined when no call runs: Ctrl-O shows it rather than the last finished call. */
  runningCall(): { label: string; output: string; ms: number } | undefined {
    const first = [...this.started.entries()].sort((a, b) => a[1] - b[1])[0];
    if (!first) return undefined;
    return { label: this.running.get(first[0]) ?? "", output: this.soFar.get(first[0]) ?? "", ms: Date.now() - first[1] };
  }

  /** Print lines between what streams (the REPL's Ctrl-O); the transient line comes back below. */
  say(text: string): void {
    this.line(text);
  }

  private showRunning(): void {
    if (this.running.size === 0) return this.clearTransient();
    const names = [...this.running.values()];
    const since = seconds(Date.now() - Math.min(...this.started.values()));
    const one = names.length === 1 ? `${names[0]} · ${since}${this.progress.size ? ` · ${[...this.progress.values()][0]}` : ""}` : undefined;
    this.transientLine(this.v.style("dim", `⋯ ${one ?? `${names.length} tools: ${names.map((n) => n.split(" ")[0]).join(", ")} · ${since}`}`));
  }

  /** Stop the clock (the turn is over, or the view is closed). */
  close(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = undefined;
  }

  /** Every second of a turn: redraw the transient line with the time that passed. */
  private tick(): void {
    if (this.v.paused?.()) return;
    if (this.running.size > 0) this.showRunning();
    else if (this.reasoningChars > 0 && !this.inText && !this.v.showThinking) this.showThinkingLine();
    else if (!this.firstToken && this.requestStarted > 0 && this.atLineStart && !this.inText) this.showWaiting();
  }

  private startTicker(): void {
    if (this.ticker || !this.v.live) return;
    this.ticker = setInterval(() => this.tick(), 1000);
    this.ticker.unref?.();
  }

  private transientLine(text: string): void {
    if (!this.v.live) return;
    if (this.transient && text === this.shown) return;
    control(this.v.out, CONTROL.clearLine);
    this.v.out.write(text);
    this.transient = true;
    this.shown = text;
    this.startTicker();
  }

  private clearTransient(): void {
    if (!this.transient) return;
    control(this.v.out, CONTROL.clearLine);
    this.transient = false;
    this.shown = "";
  }

  private line(text: string): void {
    this.clearTransient();
    if (!this.atLineStart) this.write("\n");
    this.write(`${text}\n`);
    if (this.running.size > 0) this.showRunning();
  }

  private write(s: string): void {
    if (!s) return;
    this.clearTransient();
    this.v.out.write(s);
    this.atLineStart = s.endsWith("\n");
  }
}

/** The line after each turn: tokens, cache hit %, this turn's cost and the session's — fitted to
 *  `width` columns by dropping words, then parts (never cut inside a figure). */
export function statusLine(turn: TurnTotals, session: TurnTotals, style: Style, width = Infinity): string {
  const u = turn.usage;
  const hit = u.prompt_tokens ? Math.round((u.prompt_cache_hit_tokens / u.prompt_tokens) * 100) : 0;
  const [t, s] = moneyLine(turn.costUsd, session.costUsd);
  const variants = [
    `${tokens(u.prompt_tokens)} in (${hit}% cached) · ${tokens(u.completion_tokens)} out · ${t} this turn · ${s} session`,
    `${tokens(u.prompt_tokens)} in (${hit}% cached) · ${tokens(u.completion_tokens)} out · ${t} turn · ${s} session`,
    `${tokens(u.prompt_tokens)} in · ${hit}% cached · ${t} turn · ${s} session`,
    `${hit}% cached · ${t} turn · ${s} session`,
    `${t} turn · ${s} session`,
    `${t} · ${s}`,
  ];
  return style("dim", fit(variants, width));
}

/** `3/10 (30%) · message`, or what part of it the tool said. */
function progressText(p: { progress?: number; total?: number; message?: string }): string {
  const n = p.progress === undefined ? "" : p.total ? `${p.progress}/${p.total} (${Math.round((p.progress / p.total) * 100)}%)` : String(p.progress);
  return [n, p.message ?? ""].filter(Boolean).join(" · ");
}

/** The first line with something on it (npm and others start with a blank line). */
function seconds(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** 950, 1.2k, 12k: a character count read at a glance. */
function count(n: number): string {
  return n < 1000 ? String(n) : n < 10_000 ? `${(n / 1000).toFixed(1)}k` : `${Math.round(n / 1000)}k`;
}

function firstLine(s: string): string {
  const l = s.split("\n").find((x) => x.trim() !== "")?.trim() ?? "";
  return l.length > 160 ? `${l.slice(0, 157)}…` : l;
}
