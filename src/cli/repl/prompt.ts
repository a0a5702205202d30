// Reading one prompt with readline: history, Tab completion, multi-line input (a trailing `\`
// continues; pasted lines arrive together and are kept together), Ctrl-C clears the line or,
// pressed twice within 2 s at an empty prompt, exits; Ctrl-D at an empty prompt exits.
// A fresh readline serves each prompt and is closed while a turn runs, so the turn owns the
// terminal (see keys.ts).

import { createInterface, type AsyncCompleter, type Completer } from "node:readline";

export type PromptResult = { kind: "line"; text: string } | { kind: "exit"; why: "ctrl-c" | "ctrl-d" } | { kind: "failed"; error: unknown };

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
}

/** Lines arriving closer together than this came from one paste, not from typed Enters. */
const PASTE_GAP_MS = 12;
const DOUBLE_CTRL_C_MS = 2000;

export function readPrompt(o: PromptOptions): Promise<PromptResult> {
  const input = o.input ?? process.stdin;
  const output = o.output ?? process.stdout;
  return new Promise((resolve) => {
    const rl = createInterface({ input, output, terminal: true, history: [...o.history], historySize: 1000, removeHistoryDuplicates: true, completer: o.completer, tabSize: 2 });
    const lines: string[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    let lastCtrlC = 0;
    let done = false;
    const finish = (r: PromptResult): void => {
      if (done) return;
      done = true;
      if (timer) clearTimeout(timer);
      rl.close();
      resolve(r);
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
      finish({ kind: "line", text: lines.join("\n") });
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
        output.write(`\r\x1b[2K${text}\n`);
        rl.prompt(true);
      },
      (error: unknown) => finish({ kind: "failed", error }),
    );
    rl.setPrompt(o.prompt);
    rl.prompt();
  });
}
