// Slash commands that plugins and mods contribute (api.command) in `-p`, as in the REPL: `/mcp`
// (the servers' states), an MCP server's prompts (`/mcp__server__prompt args`), a plugin's own.
// Nobody can answer a question here (`interactive: false`); what the command prints is the
// run's result when it runs no turn, and goes to stderr when it hands the model a prompt (the
// turn's answer is the result then). A custom command of the same name wins (print.ts asks
// for those first), as in the REPL.

import type { CommandRegistry, RegisteredCommand } from "../core/commands.js";

/** `/name args` → the contributed command it names. An MCP prompt command exists only once
 *  its server is connected: for an `mcp__…` name not known yet, the servers still connecting
 *  are waited for (`/mcp` does that, bounded by the start-up limit) and the name looked up again. */
export async function pluginCommandLine(text: string, commands: CommandRegistry): Promise<{ command: RegisteredCommand; args: string } | undefined> {
  const m = /^\/(\S+)\s*([\s\S]*)$/.exec(text.trim());
  if (!m) return undefined;
  let c = commands.get(m[1]);
  const mcp = commands.get("mcp");
  if (!c && m[1].startsWith("mcp__") && mcp) {
    await mcp.spec.run({ args: "list", sessionId: "", signal: new AbortController().signal, interactive: false, print: () => undefined, submit: () => Promise.resolve() });
    c = commands.get(m[1]);
  }
  return c ? { command: c, args: m[2] } : undefined;
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
