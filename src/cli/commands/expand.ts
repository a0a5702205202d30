// A custom command's body → the prompt sent to the model.
//
// - `$ARGUMENTS` is the whole argument string (trimmed); `$1`…`$N` are the arguments split as
//   a shell would (quotes group, backslash escapes); a missing one is empty.
// - Arguments given to a body that uses neither are appended as a last line `ARGUMENTS: …`
//   (what Claude Code does), so they are never silently dropped.
// - !`cmd` (a `!` at the start of a line or after a space, then a backtick span) runs `cmd`
//   through `run` and is replaced by its output; so does a fenced block opened with ```!
//   (Claude Code's form for several lines: the block's lines are one command, as a script). The REPL wires `run` to the engine's Bash tool,
//   so the permission gate sees every command. A failure or a denial is shown as such in the
//   prompt, with what the runner said — never dropped, never passed off as output.
// - Placeholders are substituted in the template only: text that arrives in the arguments or in
//   a command's output is never expanded again (an argument cannot smuggle in a !`cmd`).
// - `@path` mentions are left alone: the prompt.submit hook (mentions.ts) expands them. A
//   plugin's command may also name its own files (`@${CLAUDE_PLUGIN_ROOT}/docs/x.md`, expanded
//   when it was loaded): those are attached here (plugin-refs.ts), since they lie outside the
//   project the mentions hook reads.

/** The parts of a custom command (custom.ts's CustomCommand) that expanding it reads. */
export interface CommandTemplate {
  body: string;
  allowedTools?: string[];
  model?: string;
  /** A plugin's installed folder: `@<it>/…` references in the body are attached. */
  pluginRoot?: string;
}

export type CommandRunner = (command: string) => Promise<{ output: string; ok: boolean }>;

import { attachPluginFiles } from "./plugin-refs.js";

export interface ExpandedCommand {
  prompt: string;
  allowedTools?: string[];
  model?: string;
}

/** `!` + a backtick span, at the start of a line or after whitespace. */
const BANG = /(^|\s)!`([^`]+)`/g;
/** A fenced block whose info string is `!`: its lines run as one command. */
const FENCE = /(^|\n)```![ \t]*\r?\n([\s\S]*?)\r?\n```[ \t]*(?=\r?\n|$)/g;
const PLACEHOLDER = /\$(ARGUMENTS|[1-9]\d*)/g;

/** Where a template runs a command: [start, end) of what the output replaces, and the command. */
interface Run {
  start: number;
  end: number;
  command: string;
}

/** Every command a template runs, in order: fenced ```! blocks and !`cmd` spans (one inside a
 *  fenced block is part of that block's script, not a command of its own). */
function runsOf(body: string): Run[] {
  const fences = [...body.matchAll(FENCE)].map((m) => ({ start: m.index + m[1].length, end: m.index + m[0].length, command: m[2] }));
  const inFence = (i: number): boolean => fences.some((f) => i >= f.start && i < f.end);
  const spans = [...body.matchAll(BANG)].filter((m) => !inFence(m.index + m[1].length)).map((m) => ({ start: m.index + m[1].length, end: m.index + m[0].length, command: m[2] }));
  return [...fences, ...spans].sort((a, b) => a.start - b.start);
}

/** The commands a template runs, as written (workspace trust and install list them before
 *  they can run): !`cmd` spans and ```! blocks. */
export function bangCommands(body: string): string[] {
  return runsOf(body).map((r) => r.command.trim());
}

export async function expandCommand(cmd: CommandTemplate, args: string, run: CommandRunner): Promise<ExpandedCommand> {
  const whole = args.trim();
  const positional = splitArgs(whole);
  let used = false;
  const fill = (text: string) =>
    text.replace(PLACEHOLDER, (_, p: string) => {
      used = true;
      return p === "ARGUMENTS" ? whole : (positional[Number(p) - 1] ?? "");
    });

  const parts: string[] = [];
  let last = 0;
  for (const r of runsOf(cmd.body)) {
    parts.push(fill(cmd.body.slice(last, r.start)));
    parts.push(await runOne(fill(r.command).trim(), run));
    last = r.end;
  }
  parts.push(fill(cmd.body.slice(last)));
  let prompt = parts.join("").trim();
  if (!used && whole) prompt = `${prompt}\n\nARGUMENTS: ${whole}`;
  if (cmd.pluginRoot) prompt = attachPluginFiles(prompt, cmd.body, cmd.pluginRoot);
  return {
    prompt,
    ...(cmd.allowedTools?.length ? { allowedTools: [...cmd.allowedTools] } : {}),
    ...(cmd.model ? { model: cmd.model } : {}),
  };
}

async function runOne(command: string, run: CommandRunner): Promise<string> {
  let r: { output: string; ok: boolean };
  try {
    r = await run(command);
  } catch (err) {
    r = { ok: false, output: err instanceof Error ? err.message : String(err) };
  }
  const output = r.output.replace(/\s+$/, "");
  if (r.ok) return output;
  return `[command \`${command}\` did not succeed]${output ? `\n${output}` : ""}`;
}

/** Split like a shell: whitespace separates; '…' is literal; "…" allows \" and \\; a backslash
 *  outside quotes escapes the next character. An unclosed quote runs to the end. */
export function splitArgs(s: string): string[] {
  const out: string[] = [];
  let cur = "";
  let has = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (/\s/.test(c)) {
      if (has) out.push(cur);
      cur = "";
      has = false;
    } else if (c === "'") {
      const end = s.indexOf("'", i + 1);
      cur += s.slice(i + 1, end < 0 ? undefined : end);
      has = true;
      i = end < 0 ? s.length : end;
    } else if (c === '"') {
      has = true;
      for (i++; i < s.length && s[i] !== '"'; i++) {
        if (s[i] === "\\" && (s[i + 1] === '"' || s[i + 1] === "\\")) i++;
        cur += s[i];
      }
    } else if (c === "\\" && i + 1 < s.length) {
      cur += s[++i];
      has = true;
    } else {
      cur += c;
      has = true;
    }
  }
  if (has) out.push(cur);
  return out;
}

/** The runner the REPL uses: the engine's Bash tool, through the permission gate. */
export function engineRunner(
  engine: { runTool(tool: string, input: { command: string }, signal?: AbortSignal): Promise<{ output: { content: string; isError?: boolean } }> },
  signal?: AbortSignal,
): CommandRunner {
  return async (command) => {
    const r = await engine.runTool("Bash", { command }, signal);
    return { output: r.output.content, ok: !r.output.isError };
  };
}
