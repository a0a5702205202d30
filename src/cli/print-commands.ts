// Slash commands that plugins and mods contribute (api.command) in `-p`, as in the REPL:
// `deepcode -p "/pdf extract the tables"` runs a skill's command with its arguments, and the
// prompt it submits is the turn; `/mcp__server__prompt args` an MCP server's prompt; `/mcp` and
// `/mcp NAME` the servers' states. Nobody can answer a question here (`interactive: false`);
// what the command prints is the run's result when it runs no turn, and goes to stderr when it
// hands the model a prompt (the turn's answer is the result then). A custom command of the same
// name wins (print.ts asks for those first), as in the REPL.
//
// Only commands that make a prompt or only show something run here: skills' (the skills mod's
// `/name`, `/skills`), MCP servers' prompts, and `/mcp`'s views. Commands that change the
// person's setup or files (`/plugin install`, `/mcp approve`, `/undo`, `/rewind`) stay the
// REPL's: a line of -p input can come from a program, and such acts are the person's own.

import type { CommandRegistry, RegisteredCommand } from "../core/commands.js";

/** `/mcp`'s words that change something (the REPL's only). */
const MCP_ACTS = new Set(["approve", "reconnect", "disable", "enable", "login", "logout"]);

/** `/name args` → the contributed command it names, when -p may run it. A plugin's command may
 *  be named without its plugin (`/pdf` for `/document-skills:pdf`) when exactly one command has
 *  that last part, as Claude Code allows. An MCP prompt command exists only once its server is
 *  connected: for an `mcp__…` name not known yet, the servers still connecting are waited for
 *  (`/mcp` does that, bounded by the start-up limit) and the name looked up again. */
export async function pluginCommandLine(text: string, commands: CommandRegistry): Promise<{ command: RegisteredCommand; args: string } | undefined> {
  const m = /^\/(\S+)\s*([\s\S]*)$/.exec(text.trim());
  if (!m) return undefined;
  const [, name, args] = m;
  let c = commands.get(name);
  const mcp = commands.get("mcp");
  if (!c && name.startsWith("mcp__") && mcp) {
    await mcp.spec.run({ args: "list", sessionId: "", signal: new AbortController().signal, interactive: false, print: () => undefined, submit: () => Promise.resolve() });
    c = commands.get(name);
  }
  if (!c && !name.includes(":")) {
    const short = commands.list().filter((x) => x.spec.name.endsWith(`:${name}`));
    if (short.length === 1) c = short[0];
  }
  return c && runsInPrint(c, args) ? { command: c, args } : undefined;
}

/** A command that makes a prompt (a skill's, an MCP prompt) or only shows (`/mcp`, `/mcp NAME`). */
function runsInPrint(c: RegisteredCommand, args: string): boolean {
  if (c.source === "skills" || c.spec.name.startsWith("mcp__")) return true;
  return c.spec.name === "mcp" && !MCP_ACTS.has(args.trim().split(/\s+/)[0]) && !MCP_ACTS.has(args.trim().split(/\s+/)[1] ?? "");
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
