// Running a custom command (a project's, the person's or an enabled plugin's), the same way in
// the REPL and in `-p "/name args"`: Claude Code's meaning — `allowed-tools` are allowed without
// asking while the command runs (its own !`cmd` lines included, never against a deny), and
// `model` runs this command's turn on that model. A project's command loosens rules or runs its
// !`cmd` lines only in a trusted project; a plugin's is the person's own (they installed it).

import type { App } from "../assemble.js";
import type { Engine } from "../../core/engine/engine.js";
import { bangCommands, engineRunner, expandCommand, type CommandRunner, type CustomCommand, type ExpandedCommand } from "./custom.js";

export interface CommandRun<T> {
  /** Runs the expansion (which may ask the person about a !`cmd` line); undefined: cancelled. */
  expand(fn: (signal: AbortSignal) => Promise<ExpandedCommand>): Promise<ExpandedCommand | undefined>;
  warn(message: string): void;
  turn(prompt: string): Promise<T>;
}

export async function runCustomCommand<T>(app: App, engine: Engine, c: CustomCommand, args: string, r: CommandRun<T>): Promise<T | undefined> {
  const trusted = c.scope !== "project" || app.trust.trusted;
  if (!trusted && (c.allowedTools?.length || bangCommands(c.body).length)) {
    r.warn(`this project is not trusted: /${c.name}'s allowed-tools and !\`cmd\` lines are ignored (/trust)`);
  }
  // For this session's own calls: a subagent the turn starts does not inherit them.
  const release = app.sessionRules.temporary(trusted ? (c.allowedTools ?? []) : [], engine.sessionId);
  const model = engine.profile.model;
  try {
    const run = (signal: AbortSignal): CommandRunner => (trusted ? engineRunner(engine, signal) : async () => ({ ok: false, output: "not run: this project is not trusted" }));
    const x = await r.expand((signal) => expandCommand(c, args, run(signal)));
    if (!x) return undefined;
    if (x.model && x.model !== model) engine.setModel(x.model);
    return await r.turn(x.prompt);
  } finally {
    release();
    if (engine.profile.model !== model) engine.setModel(model);
  }
}

/** `/name args` → the command and its arguments, when `text` names one. */
export function commandLine(text: string, commands: readonly CustomCommand[]): { command: CustomCommand; args: string } | undefined {
  const m = /^\/(\S+)\s*([\s\S]*)$/.exec(text.trim());
  const c = m ? commands.find((x) => x.name === m[1]) : undefined;
  return c ? { command: c, args: m![2] } : undefined;
}
