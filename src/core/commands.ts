// Slash commands contributed by plugins (PluginApi.command), as the REPL lists and runs them.
// The same shape of registry as the tools': a name is taken once; the one who added a command
// can take it back. The REPL decides what a name a built-in or custom command has means.

import type { CommandSpec } from "../contract/index.js";

export interface RegisteredCommand {
  spec: CommandSpec;
  /** The plugin id that contributed it. */
  source: string;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/;

export class CommandRegistry {
  private readonly byName = new Map<string, RegisteredCommand>();

  add(spec: CommandSpec, source: string): void {
    if (!NAME.test(spec.name)) throw new Error(`command name '${spec.name}' from ${source} is not [A-Za-z0-9][A-Za-z0-9_.:-]*`);
    const existing = this.byName.get(spec.name);
    if (existing) throw new Error(`command /${spec.name} from ${source} clashes with the one from ${existing.source}`);
    this.byName.set(spec.name, { spec, source });
  }

  remove(name: string, spec?: CommandSpec): void {
    if (spec && this.byName.get(name)?.spec !== spec) return; // someone else's by now
    this.byName.delete(name);
  }

  get(name: string): RegisteredCommand | undefined {
    return this.byName.get(name);
  }

  /** By name: the same order every time. */
  list(): RegisteredCommand[] {
    return [...this.byName.values()].sort((a, b) => (a.spec.name < b.spec.name ? -1 : a.spec.name > b.spec.name ? 1 : 0));
  }
}
