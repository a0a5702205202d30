// The custom commands of a REPL session: read at start, read again on `/reload` and whenever a
// `/name` is not known (a file added mid-session works at once), each turned into a slash
// command. Warnings (a bad header line, a file that is not registered) are said when found.

import { loadCustomCommands, type CustomCommand, type PluginCommandSource } from "../commands/custom.js";
import { BUILTIN_COMMANDS } from "./commands.js";

export class CustomCommands {
  private list: CustomCommand[] = [];
  private said = new Set<string>();

  constructor(private readonly where: { root: string; home: string; plugins?: readonly PluginCommandSource[] }) {}

  get commands(): readonly CustomCommand[] {
    return this.list;
  }

  /** Read the files; returns the warnings not said before. */
  load(): string[] {
    const loaded = loadCustomCommands({ ...this.where, reserved: BUILTIN_COMMANDS.map((c) => c.name) });
    this.list = loaded.commands;
    const fresh = loaded.warnings.filter((w) => !this.said.has(w));
    this.said = new Set(loaded.warnings);
    return fresh;
  }

  /** Read the files again; what changed, in words (new, changed and removed commands, and
   *  warnings), for `/reload` and for a `/name` found only now. */
  reload(): string[] {
    const before = new Map(this.list.map((c) => [c.name, fingerprint(c)]));
    const warnings = this.load();
    const out: string[] = [];
    for (const c of this.list) {
      const was = before.get(c.name);
      const now = fingerprint(c);
      if (was === undefined) out.push(`new command /${c.name} (${c.file})`);
      else if (was !== now) out.push(`command /${c.name} changed (${c.file})`);
      before.delete(c.name);
    }
    for (const name of before.keys()) out.push(`command /${name} is gone (its file was removed)`);
    return [...out, ...warnings.map((w) => `! ${w}`)];
  }
}

/** The custom commands as the REPL offers them beside mod and plugin commands (`theirs`: an MCP
 *  server's prompts, the person's skills, /agents …): a project's command whose name one of
 *  those has is offered as /project:<name>, so a repository cannot take their place. */
export function besidePluginCommands(custom: readonly CustomCommand[], theirs: readonly string[]): CustomCommand[] {
  const taken = new Set(theirs);
  return custom.map((c) => (c.scope === "project" && taken.has(c.name) ? { ...c, name: `project:${c.name}` } : c));
}

function fingerprint(c: CustomCommand): string {
  return JSON.stringify([c.file, c.description, c.body, c.argumentHint, c.allowedTools, c.model]);
}
