// Slash commands that plugins and mods contribute (api.command) in `-p`, as in the REPL:
// `deepcode -p "/pdf extract the tables"` runs a skill's command with its arguments, and the
// prompt it submits is the turn; `/mcp__server__prompt args` an MCP server's prompt; `/mcp` and
// `/mcp NAME` the servers' states. Nobody can answer a question here (`interactive: false`);
// what the command prints is the run's result when it runs no turn, and goes to stderr when it
// hands the model a prompt (the turn's answer is the result then). A custom command of the same
// name wins (print.ts asks for those first), as in the REPL.
//
// A command runs here when its spec says so (CommandSpec.print): those that make a prompt or
// only show something — skills' (the skills mod's `/name`, `/skills`), MCP servers' prompts,
// and `/mcp`'s views. Commands that change the person's setup or files (`/plugin install`,
// `/mcp approve`, `/undo`, `/rewind`) do not say so and stay the REPL's: a line of -p input
// can come from a program, and such acts are the person's own.

import type { CommandRegistry, RegisteredCommand } from "../core/commands.js";

/** `/name args` → the contributed command it names, when -p may run it. A plugin's command may
 *  be named without its plugin (`/pdf` for `/document-skills:pdf`) when exactly one command has
 *  that last part, as Claude Code allows. A name no command has yet may still come (an MCP
 *  prompt exists once its server is connected): every command's `settle` is awaited (bounded
 *  by each) and the name looked up again. */
export async function pluginCommandLine(text: string, commands: CommandRegistry): Promise<{ command: RegisteredCommand; args: string } | undefined> {
  const m = /^\/(\S+)\s*([\s\S]*)$/.exec(text.trim());
  if (!m) return undefined;
  const [, name, args] = m;
  let c = commands.get(name);
  if (!c) {
    const settling = commands.list().flatMap((x) => (x.spec.settle ? [x.spec.settle(name)] : []));
    if (settling.length) {
      await Promise.allSettled(settling);
      c = commands.get(name);
    }
  }
  if (!c && !name.includes(":")) {
    const short = commands.list().filter((x) => x.spec.name.endsWith(`:${name}`));
    if (short.length === 1) c = short[0];
  }
  return c && runsInPrint(c, args) ? { command: c, args } : undefined;
}

/** What the command's spec says of -p (CommandSpec.print). */
function runsInPrint(c: RegisteredCommand, args: string): boolean {
  const p = c.spec.print;
  return typeof p === "function" ? p(args) : p === true;
}

/** Run it; `turn` runs the prompt it submits (the last one, if several). */
export async function runPluginCommand<T>(c: RegisteredCommand, args: string, o: { sessionId: string; signal: AbortSignal; turn(prompt: string): Promise<T> }): Promise<{ printed: string; turn?: T }> {
  const printed: string[] = [];
  let turn: T | undefined;
  await c.spec.run({
    args,
    sessionId: o.sessionId,
    signal: o.signal,
    interactive: false,
    print: (t) => void printed.push(t),
    submit: async (prompt) => {
      turn = await o.turn(prompt);
    },
  });
  return { printed: printed.join("\n"), ...(turn !== undefined ? { turn } : {}) };
}

/** Why `-p` refuses a line `/name …` that names no command it can run (Claude Code errors there
 *  too): sent on to the model as text, it would cost a turn and do nothing the person meant. A
 *  first word with another slash in it (`/usr/bin/env fails`) is a path, not a command. */
export function unknownCommand(text: string, commands: CommandRegistry): string | undefined {
  const m = /^\/([A-Za-z0-9][\w.:-]*)(?=\s|$)/.exec(text);
  if (!m) return undefined;
  const sent = "nothing was sent to the model";
  if (commands.get(m[1])) return `/${m[1]} runs in the REPL only (it changes your setup or asks you something); ${sent}`;
  return `unknown command /${m[1]}: no custom command, skill or plugin command has that name, and deepcode's own commands (/cost, /help…) are the REPL's; ${sent}. To ask the model about it, put a word before the slash`;
}
