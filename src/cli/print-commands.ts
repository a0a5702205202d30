// Slash commands plugins and mods contribute (PluginApi.command: a skill's `/pdf`, an MCP
// server's prompt) in `-p`, as the REPL runs them: `deepcode -p "/pdf extract the tables"`
// runs the command with its arguments; the prompt it submits is the turn. Nobody is at a
// terminal (`interactive: false`): a question the command asks is denied like any other in
// -p. What it prints goes to stdout in text format, to stderr otherwise (stdout stays JSON).
// A custom command of the same name is run instead (print.ts looks there first), as in the
// REPL, where the person's own command wins.
//
// Only commands that turn into a prompt run here: skills' (the skills mod's `/name`, `/skills`)
// and MCP servers' prompts (`/mcp__server__prompt`). Commands that change the person's setup
// or files (`/plugin install`, `/mcp approve`, `/undo`, `/rewind`) stay the REPL's: a line of
// -p input can come from a program, and such acts are the person's own.

import type { CommandRegistry, RegisteredCommand } from "../core/commands.js";

/** `/name args` → the contributed command and its arguments, when `text` names one. A
 *  plugin's command may be named without its plugin (`/pdf` for `/document-skills:pdf`) when
 *  exactly one command has that last part, as Claude Code allows. */
export function contributedCommandLine(text: string, commands: CommandRegistry): { command: RegisteredCommand; args: string } | undefined {
  const m = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!m) return undefined;
  let c = commands.get(m[1]);
  if (!c && !m[1].includes(":")) {
    const short = commands.list().filter((x) => x.spec.name.endsWith(`:${m[1]}`));
    if (short.length === 1) c = short[0];
  }
  return c && promptCommand(c) ? { command: c, args: m[2] ?? "" } : undefined;
}

/** A command that makes a prompt (a skill's, an MCP prompt), never one that changes a setup. */
function promptCommand(c: RegisteredCommand): boolean {
  return c.source === "skills" || c.spec.name.startsWith("mcp__");
}

/** Run it; the last turn it submitted (undefined: it submitted none, it only printed). */
export async function runContributedCommand<T>(c: RegisteredCommand, args: string, o: { sessionId: string; signal: AbortSignal; print(text: string): void; turn(prompt: string): Promise<T> }): Promise<T | undefined> {
  let last: T | undefined;
  await c.spec.run({
    args,
    sessionId: o.sessionId,
    signal: o.signal,
    interactive: false,
    print: o.print,
    submit: async (prompt) => {
      last = await o.turn(prompt);
    },
  });
  return last;
}
