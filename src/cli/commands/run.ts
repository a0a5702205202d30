// Running a custom command (a project's, the person's or an enabled plugin's), the same way in
// the REPL and in `-p "/name args"`: Claude Code's meaning — `allowed-tools` are allowed without
// asking while the command runs (its own !`cmd` lines included, never against a deny), and
// `model` runs this command's turn on that model. A project's command loosens rules or runs its
// !`cmd` lines only in a trusted project; a plugin's is the person's own (they installed it).

import { homedir } from "node:os";
import type { App } from "../assemble.js";
import { inspectionRule } from "./inspect.js";
import { trustCovers } from "../trust/index.js";
import type { Engine } from "../../core/engine/engine.js";
import { bangCommands, engineRunner, expandCommand, type CommandRunner, type CustomCommand, type ExpandedCommand } from "./custom.js";

export interface CommandRun<T> {
  /** Runs the expansion (which may ask the person about a !`cmd` line); undefined: cancelled. */
  expand(fn: (signal: AbortSignal) => Promise<ExpandedCommand>): Promise<ExpandedCommand | undefined>;
  warn(message: string): void;
  turn(prompt: string): Promise<T>;
}

export async function runCustomCommand<T>(app: App, engine: Engine, c: CustomCommand, args: string, r: CommandRun<T>): Promise<T | undefined> {
  const projectTrusted = c.scope !== "project" || app.trust.trusted;
  // A project's command grants and runs only what trust covered at start: a file added or
  // changed mid-session (after the person said yes) asks as an untrusted one does.
  const covered = c.scope !== "project" || (trustCovers(app.trust, c.file, "allowed-tools", c.allowedTools ?? []) && trustCovers(app.trust, c.file, "!cmd", bangCommands(c.body)));
  const trusted = projectTrusted && covered;
  if (!trusted && (c.allowedTools?.length || bangCommands(c.body).length)) {
    r.warn(
      projectTrusted
        ? `/${c.name} was added or changed after this project was trusted: its allowed-tools and !\`cmd\` lines are ignored until deepcode starts again and trust covers them`
        : `this project is not trusted: /${c.name}'s allowed-tools and !\`cmd\` lines are ignored (/trust)`,
    );
  }
  // For this session's own calls: a subagent the turn starts does not inherit them.
  const release = app.sessionRules.temporary(trusted ? (c.allowedTools ?? []) : [], engine.sessionId);
  const model = engine.profile.model;
  try {
    const run = (signal: AbortSignal): CommandRunner => (trusted ? inspecting(app, engine, engineRunner(engine, signal)) : async () => ({ ok: false, output: "not run: this project is not trusted" }));
    const x = await r.expand((signal) => expandCommand(c, args, run(signal)));
    if (!x) return undefined;
    // An untrusted project's command does not choose the model (it must not spend more).
    if (x.model && x.model !== model && !projectTrusted) r.warn(`this project is not trusted: /${c.name}'s model ${x.model} is not used (/trust)`);
    else if (x.model && x.model !== model) engine.setModel(x.model);
    return await r.turn(x.prompt);
  } finally {
    release();
    if (engine.profile.model !== model) engine.setModel(model);
  }
}

/** A trusted command's !`cmd` line that only looks runs without a prompt (inspect.ts): its exact
 *  allow rule holds for this session while that line runs, and is taken back after it. */
function inspecting(app: App, engine: Engine, run: CommandRunner): CommandRunner {
  return async (command) => {
    const rule = inspectionRule(command, { root: app.root, cwd: engine.cwd, home: homedir() });
    const release = rule ? app.sessionRules.temporary([rule], engine.sessionId) : undefined;
    try {
      return await run(command);
    } finally {
      release?.();
    }
  };
}

/** `/name args` → the command and its arguments, when `text` names one. A sub-folder command's
 *  Claude Code name (CustomCommand.alias) counts only where no other command has it as its
 *  name (`taken`: the mods' commands — a skill's `/pdf` stays the skill's). */
export function commandLine(text: string, commands: readonly CustomCommand[], taken: (name: string) => boolean = () => false): { command: CustomCommand; args: string } | undefined {
  const m = /^\/(\S+)\s*([\s\S]*)$/.exec(text.trim());
  const c = m ? (commands.find((x) => x.name === m[1]) ?? (taken(m[1]) ? undefined : commands.find((x) => x.alias === m[1]))) : undefined;
  return c ? { command: c, args: m![2] } : undefined;
}
