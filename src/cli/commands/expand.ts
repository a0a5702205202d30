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
import { runsOf, splitArgs } from "../../lib/command-text.js";

export { bangCommands, splitArgs } from "../../lib/command-text.js";

export interface ExpandedCommand {
  prompt: string;
  allowedTools?: string[];
  model?: string;
}

const PLACEHOLDER = /\$(ARGUMENTS|[1-9]\d*)/g;

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
