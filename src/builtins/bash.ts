// Bash {command, timeout?, description?}: `bash -c` through ctx.run (so the sandbox hook sees
// it), in the session's working directory, which persists across calls: a trailer appended to
// the script prints a nonce-marked `$PWD` as the last line of stdout, and the tool takes it off
// again, so the command's own output looks as it would in a terminal. A command that `exit`s
// keeps the previous directory. Timeout (default 2 min, at most 10) or abort kills the whole
// process group. The model sees what a person would want of the output (bash-output.ts:
// passing-test lines counted, then start + failures + end within BASH_MAX_OUTPUT_CHARS); when
// anything was left out, the whole output is kept beside the session (ctx.keepOutput) and the
// last line says where, so it is one Read away.

import { randomBytes } from "node:crypto";
import { statSync } from "node:fs";
import type { ProcessRunResult, ToolContext, ToolOutput, ToolSpec } from "../contract/index.js";
import { condense } from "./bash-output.js";
import { failureReason } from "./bash-failure.js";

export const BASH_DEFAULT_TIMEOUT_MS = 120_000;
export const BASH_MAX_TIMEOUT_MS = 600_000;
const BASH_MIN_TIMEOUT_MS = 1_000;
/** What the model sees of stdout + stderr together, at most (bash-output.ts decides what).
 *  About 150 lines of a log: more than a person reads before scrolling back, and with the whole
 *  output one Read away, a cut costs one call to undo (it was 30,000, head + tail, with the
 *  middle lost). */
export const BASH_MAX_OUTPUT_CHARS = 10_000;
/** What is captured of each stream for the kept file (head + tail beyond it, marked). */
export const BASH_CAPTURE_BYTES = 4 * 1024 * 1024;

type BashInput = {
  command: string;
  timeout?: number;
  description?: string;
};

export const bashTool: ToolSpec<BashInput> = {
  name: "Bash",
  description:
    "Runs a bash command; returns its output and exit code. The working directory persists; stdin is empty. Long output keeps its start, failures and end, and names a file with all of it. Prefer Read, Grep, Glob to cat, grep, find.",
  inputSchema: {
    type: "object",
    properties: {
      command: { type: "string" },
      timeout: { type: "integer", minimum: 1, maximum: BASH_MAX_TIMEOUT_MS, description: `ms (default ${BASH_DEFAULT_TIMEOUT_MS})` },
      description: { type: "string" },
    },
    required: ["command"],
    additionalProperties: false,
  },
  readOnly: false,
  async run(input, ctx): Promise<ToolOutput> {
    if (input.command.trim() === "") return { content: "command is empty.", isError: true };
    let note = "";
    if (!isDirectory(ctx.shell.cwd)) {
      note = `[the working directory ${ctx.shell.cwd} no longer exists; ran in ${ctx.root}]\n`;
      ctx.shell.cwd = ctx.root;
    }
    const timeoutMs = Math.min(BASH_MAX_TIMEOUT_MS, Math.max(BASH_MIN_TIMEOUT_MS, Math.floor(input.timeout ?? BASH_DEFAULT_TIMEOUT_MS)));
    const marker = `__deepcode_cwd_${randomBytes(8).toString("hex")}__`;
    const script = `${input.command}\n__deepcode_status=$?\nprintf '\\n${marker}%s\\n' "$PWD"\nexit $__deepcode_status\n`;
    const r = await ctx.run({
      argv: ["bash", "-c", script],
      cwd: ctx.shell.cwd,
      command: input.command,
      env: { PAGER: "cat", GIT_PAGER: "cat", GIT_TERMINAL_PROMPT: "0" },
      timeoutMs,
      maxOutputBytes: BASH_CAPTURE_BYTES,
      ...(ctx.progress ? { onOutput: tailOf(marker, ctx.progress.bind(ctx)) } : {}),
    });
    const { stdout, cwd } = takeCwd(r.stdout, marker);
    if (cwd && isDirectory(cwd)) ctx.shell.cwd = cwd;
    // A command that ran and failed: why, in one line, for the call's line on the screen.
    const failed = r.exitCode !== 0 && r.exitCode !== null && !r.timedOut && !r.interrupted;
    const failure = failed ? failureReason(`${stdout}\n${r.stderr}`) : undefined;
    return {
      content: note + (await format(r, stdout, timeoutMs, ctx)),
      isError: r.exitCode !== 0 || r.timedOut || r.interrupted,
      summary: `Bash ${oneLine(input.command)} → ${outcome(r, timeoutMs)} (${(r.durationMs / 1000).toFixed(1)} s)`,
      meta: {
        exitCode: r.exitCode,
        signal: r.signal,
        timedOut: r.timedOut,
        interrupted: r.interrupted,
        durationMs: Math.round(r.durationMs),
        cwd: ctx.shell.cwd,
        truncatedBytes: r.truncatedBytes,
        ...(failure ? { failure } : {}),
        ...(input.description ? { description: input.description } : {}),
        ...(r.sandbox ? { sandbox: r.sandbox } : {}),
      },
    };
  },
};

/** How often the running line's tail may change: calm, not a scrolling log. */
const TAIL_EVERY_MS = 250;

/** How much of a running command's output its progress carries (the latest part), for Ctrl-O. */
const SO_FAR_CHARS = 64 * 1024;

/** A live view of the output: its last line with something on it, as the call's progress
 *  (the REPL shows it on the running line, and drops it when the call ends), and the output so
 *  far (its latest SO_FAR_CHARS), which the REPL shows whole on Ctrl-O while the call runs. */
function tailOf(marker: string, progress: NonNullable<ToolContext["progress"]>): (text: string) => void {
  let pending = "";
  let sofar = "";
  let last = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const say = (): void => {
    timer = undefined;
    last = Date.now();
    // Inert: escape sequences and control characters of the output never reach the terminal.
    const clean = (l: string): string => l.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, "").replace(/[\u0000-\u001f\u007f-\u009f]/g, "").trim();
    const line = pending.split(/\r?\n|\r/).map(clean).filter((l) => l && !l.includes(marker)).pop();
    const output = sofar.split("\n").filter((l) => !l.includes(marker)).join("\n");
    if (line) progress({ message: line.length > 120 ? `${line.slice(0, 119)}…` : line, output });
  };
  return (text) => {
    sofar = (sofar + text).slice(-SO_FAR_CHARS);
    pending = (pending + text).slice(-4096);
    const wait = TAIL_EVERY_MS - (Date.now() - last);
    if (wait <= 0) return say();
    timer ??= setTimeout(say, wait);
    timer.unref?.();
  };
}

/** stdout without the trailer's line, and the directory it named (if the trailer ran). */
function takeCwd(stdout: string, marker: string): { stdout: string; cwd: string | null } {
  const at = stdout.lastIndexOf(`\n${marker}`);
  if (at < 0) return { stdout, cwd: null };
  const from = at + 1 + marker.length;
  const eol = stdout.indexOf("\n", from);
  const cwd = stdout.slice(from, eol < 0 ? undefined : eol);
  return { stdout: stdout.slice(0, at) + (eol < 0 ? "" : stdout.slice(eol + 1)), cwd };
}

async function format(r: ProcessRunResult, stdout: string, timeoutMs: number, ctx: ToolContext): Promise<string> {
  const parts: string[] = [];
  const out = stdout.replace(/\n$/, "");
  const err = r.stderr.replace(/\n$/, "");
  if (out) parts.push(out);
  if (err) parts.push(out ? `[stderr]\n${err}` : err);
  const whole = parts.join("\n");
  const shown = condense(whole, BASH_MAX_OUTPUT_CHARS);
  let body = shown.text;
  if (shown.omitted > 0 || shown.shortened > 0) {
    const n = (x: number): string => x.toLocaleString("en-US");
    const what = shown.omitted > 0 ? `${n(shown.omitted)} of ${n(whole.split("\n").length)} lines left out` : `${n(shown.shortened)} long line${shown.shortened === 1 ? "" : "s"} cut`;
    const kept = await ctx.keepOutput(whole);
    // The body's own markers already count what they left out ("[… 120 passing lines …]"), so a
    // kept output's last line says only where all of it is (issue 41: 6 tokens less each time).
    const all = shown.omitted > 0 ? `all ${n(whole.split("\n").length)} lines` : `${what}; all of it`;
    body += kept ? `\n[${all}: Read ${kept}]` : `\n[${what}; rerun the command narrowed (grep, tail) to see them]`;
  }
  const status: string[] = [];
  if (r.timedOut) status.push(`[timed out after ${fmtSeconds(timeoutMs)}; the command and every process it started were killed]`);
  else if (r.interrupted) status.push("[interrupted; the command and every process it started were killed]");
  else if (r.exitCode !== 0 && r.exitCode !== null) status.push(`[exit code ${r.exitCode}]`);
  else if (r.signal) status.push(`[killed by ${r.signal}]`);
  if (!body && status.length === 0) return "(no output)";
  return [body, ...status].filter(Boolean).join("\n");
}

function outcome(r: ProcessRunResult, timeoutMs: number): string {
  if (r.timedOut) return `timed out after ${fmtSeconds(timeoutMs)}`;
  if (r.interrupted) return "interrupted";
  if (r.exitCode === null) return `killed by ${r.signal ?? "a signal"}`;
  return `exit ${r.exitCode}`;
}

function fmtSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

function oneLine(command: string): string {
  const first = command.trim().split("\n")[0];
  const s = first.length > 60 ? `${first.slice(0, 57)}...` : first;
  return command.trim().includes("\n") && s === first ? `${s} …` : s;
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false; // ENOENT and the like: not a directory we can run in
  }
}
