// Reading one prompt with readline: history, Tab completion, multi-line input, Ctrl-C clears the
// line or, pressed twice within 2 s at an empty prompt, exits; Ctrl-D at an empty prompt exits.
// A fresh readline serves each prompt and is closed while a turn runs, so the turn owns the
// terminal (see keys.ts); what was typed meanwhile arrives here as `prefill`.
//
// Multi-line input: a trailing `\` continues the line. A paste (the terminal's bracketed paste,
// which the REPL turns on) is taken whole: its lines show as one block — the first after the
// prompt, the others aligned under it without a marker — and nothing is sent until Enter, even
// when the pasted text ends in a newline. Without bracketed paste, lines arriving closer
// together than a typist could press Enter are kept together (the older heuristic).

import { createInterface, type AsyncCompleter, type Completer, type Interface } from "node:readline";
import { PassThrough } from "node:stream";
import { CTRL_O, PASTE_END, PASTE_START } from "./keys.js";
import { visibleLength } from "../render/figures.js";
import { CONTROL, control, rawView } from "../render/terminal.js";

export type PromptResult = ({ kind: "line"; text: string } | { kind: "wake"; text: string; typed: string } | { kind: "exit"; why: "ctrl-c" | "ctrl-d" } | { kind: "failed"; error: unknown }) & {
  /** The `interject` text was printed before the prompt ended. */
  interjected?: boolean;
};

export interface PromptOptions {
  prompt: string;
  continuation: string;
  history: string[];
  completer?: Completer | AsyncCompleter;
  input?: NodeJS.ReadStream;
  output?: NodeJS.WriteStream;
  /** Said after the first Ctrl-C at an empty prompt. */
  exitHint: string;
  /** Text that arrives while the person types (the rest of the banner, once loaded) is printed
   *  above the prompt, which is redrawn with what was typed. If it fails, the prompt ends. */
  interject?: Promise<string | undefined>;
  /** An Enter typed in this many ms from now is dropped (a stray second press after a cancel
   *  put this prompt back: TurnKeys.quietEnters). */
  quietEnterMs?: number;
  /** Type-ahead: raw keys typed before this prompt opened, replayed as if typed now. */
  prefill?: string;
  /** Gets the function that ends this prompt for a wake (PluginApi.wake): the result is
   *  `wake` with the text and what was typed on the line; false (nothing ends) while a
   *  multi-line prompt is being entered or after the prompt ended. */
  wakeable?: (wake: (text: string) => boolean) => void;
  /** Lines said while the person types (a mod's message: a background job ended) are printed
   *  above the prompt, which is redrawn with what was typed: the prompt hands its printer to
   *  `above`, and takes it back (the returned function) when it ends. */
  above?: (print: (text: string) => void) => () => void;
  /** Ctrl-O: the text returned is printed above the prompt, which is redrawn with what was
   *  typed (the REPL: the last tool call's full output). Ctrl-O inside a paste is pasted text. */
  expand?: () => string;
}

/** Lines arriving closer together than this came from one paste, not from typed Enters. */
const PASTE_GAP_MS = 12;
const DOUBLE_CTRL_C_MS = 2000;

export function readPrompt(o: PromptOptions): Promise<PromptResult> {
  const stdin = o.input ?? process.stdin;
  const output = o.output ?? process.stdout;
  // readline reads from a proxy fed by stdin, so a bracketed paste is handled here before
  // readline would take each pasted newline for an Enter.
  const proxy = Object.assign(new PassThrough(), {
    isTTY: true,
    setRawMode: (mode: boolean) => (stdin.isTTY ? stdin.setRawMode(mode) : stdin),
  });
  return new Promise((resolve) => {
    const rl = createInterface({ input: proxy, output: rawView(output), terminal: true, history: [...o.history], historySize: 1000, removeHistoryDuplicates: true, completer: o.completer, tabSize: 2 });
    const lines: string[] = [];
    const indent = " ".repeat(visibleLength(o.prompt));
    let timer: ReturnType<typeof setTimeout> | undefined;
    let lastCtrlC = 0;
    let done = false;
    let interjected = false;
    let pending = ""; // an unfinished paste or escape sequence, waiting for the rest
    const above: { release?: () => void } = {}; // set once the prompt is on screen
    const finish = (r: PromptResult): void => {
      if (done) return;
      done = true;
      above.release?.();
      if (timer) clearTimeout(timer);
      stdin.off("data", onData);
      stdin.pause();
      rl.close();
      resolve(interjected ? { ...r, interjected } : r);
    };
    const onData = (data: Buffer | string): void => {
      let s = pending + data.toString();
      pending = "";
      for (;;) {
        const at = s.indexOf(PASTE_START);
        if (at < 0) break;
        const end = s.indexOf(PASTE_END, at);
        if (end < 0) {
          pending = s.slice(at);
          s = s.slice(0, at);
          break;
        }
        if (at > 0) typed(s.slice(0, at));
        paste(s.slice(at + PASTE_START.length, end));
        s = s.slice(end + PASTE_END.length);
      }
      if (s) typed(s);
    };
    /** Typed keys go to readline; a Ctrl-O among them prints `expand`'s text above the prompt. */
    const quietUntil = Date.now() + (o.quietEnterMs ?? 0);
    const typed = (typedKeys: string): void => {
      const keys = Date.now() < quietUntil ? typedKeys.replace(/\r\n?|\n/g, "") : typedKeys;
      const parts = o.expand ? keys.split(CTRL_O) : [keys];
      parts.forEach((part, i) => {
        if (i > 0) printAbove(o.expand!());
        if (part) proxy.write(part);
      });
    };
    const printAbove = (text: string): void => {
      if (done) return;
      control(output, CONTROL.clearLine);
      output.write(`${text}\n`);
      rl.prompt(true);
    };
    /** A paste: one line goes in as typed; several become a block that waits for Enter. */
    const paste = (text: string): void => {
      const parts = text.replace(/\r\n?/g, "\n").split("\n");
      if (parts.length === 1) return void proxy.write(parts[0]);
      moveToEnd(rl);
      const first = rl.line + parts[0];
      rl.write(null, { ctrl: true, name: "u" }); // the typed start becomes part of the block
      control(output, CONTROL.clearLine);
      output.write(`${lines.length ? indent : o.prompt}${first}\n`);
      lines.push(first);
      for (const p of parts.slice(1, -1)) {
        output.write(`${indent}${p}\n`);
        lines.push(p);
      }
      rl.setPrompt(indent);
      rl.prompt();
      rl.write(parts[parts.length - 1]);
    };
    const submitIfComplete = (): void => {
      timer = undefined;
      const last = lines[lines.length - 1] ?? "";
      // More is typed or pasted on the current line, or the last line asks to go on: keep reading.
      if (rl.line.length > 0 || last.endsWith("\\")) {
        rl.setPrompt(o.continuation);
        rl.prompt(true);
        return;
      }
      finish({ kind: "line", text: lines.join("\n").replace(/\n+$/, "") });
    };
    rl.on("line", (line) => {
      if (lines.length > 0 && lines[lines.length - 1].endsWith("\\")) lines[lines.length - 1] = lines[lines.length - 1].slice(0, -1);
      lines.push(line);
      if (timer) clearTimeout(timer);
      timer = setTimeout(submitIfComplete, PASTE_GAP_MS);
    });
    rl.on("SIGINT", () => {
      if (rl.line.length > 0 || lines.length > 0) {
        lines.length = 0;
        output.write("^C\n");
        rl.setPrompt(o.prompt);
        rl.write(null, { ctrl: true, name: "u" }); // clear what was typed
        rl.prompt();
        return;
      }
      const now = Date.now();
      if (now - lastCtrlC < DOUBLE_CTRL_C_MS) return finish({ kind: "exit", why: "ctrl-c" });
      lastCtrlC = now;
      output.write(`\n${o.exitHint}\n`);
      rl.prompt();
    });
    rl.on("close", () => finish({ kind: "exit", why: "ctrl-d" }));
    o.interject?.then(
      (text) => {
        if (done || !text) return;
        interjected = true;
        control(output, CONTROL.clearLine);
        output.write(`${text}\n`);
        rl.prompt(true);
      },
      (error: unknown) => finish({ kind: "failed", error }),
    );
    o.wakeable?.((text) => {
      if (done || lines.length > 0 || pending) return false;
      const typed = rl.line;
      control(output, CONTROL.clearLine);
      finish({ kind: "wake", text, typed });
      return true;
    });
    rl.setPrompt(o.prompt);
    rl.prompt();
    above.release = o.above?.(printAbove);
    stdin.on("data", onData);
    stdin.resume();
    if (o.prefill) onData(o.prefill);
  });
}

function moveToEnd(rl: Interface): void {
  rl.write(null, { ctrl: true, name: "e" });
}
