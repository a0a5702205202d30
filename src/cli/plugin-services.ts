// What the plugin host offers plugins besides hooks and tools (src/contract/plugin.ts): slash
// commands (api.command), `@` completion (api.mentions), status reports (api.status) and
// connections made the way deepcode's own requests are (api.connect: the proxy variables,
// loopback always direct). Assembly keeps these on the App, where the REPL and the
// subcommands find them.

import type { MentionCompleter, StatusOf, SubcommandSpec } from "../contract/index.js";
import { CommandRegistry } from "../core/commands.js";
import type { PluginHost } from "../core/plugins.js";
import { openSocket, targetOf } from "../providers/index.js";

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\]|::1)$/i;

export interface PluginServices {
  commands: CommandRegistry;
  mentionCompleters: Array<{ source: string; complete: MentionCompleter }>;
  /** What plugin `id` reports (api.status), typed for deepcode's own mods (KnownStatus). */
  pluginStatus<K extends string>(id: K): StatusOf<K> | undefined;
  /** `deepcode <name>` subcommands plugins contributed (api.subcommand), by name. */
  subcommands: Map<string, { spec: SubcommandSpec; source: string }>;
  host: Required<Pick<PluginHost, "addCommand" | "removeCommand" | "addMentions" | "setStatus" | "statusOf" | "connect" | "addSubcommand" | "wake">>;
  /** The REPL's answer to PluginApi.wake while it waits at its prompt (none: nobody to wake). */
  setWaker(waker: ((sessionId: string, text: string) => boolean) | undefined): void;
}

/** Names deepcode's own subcommands have (src/cli/options.ts SUBCOMMANDS that the CLI runs
 *  itself): a plugin cannot take them. */
export type ReservedNames = (name: string) => boolean;

export function pluginServices(env: NodeJS.ProcessEnv, reserved: ReservedNames = () => false): PluginServices {
  const commands = new CommandRegistry();
  const mentionCompleters: PluginServices["mentionCompleters"] = [];
  // One reporter per id: the first plugin that reports under an id keeps it (a later plugin
  // with the same id cannot speak for the sandbox or plan mode).
  const statuses = new Map<string, { owner: object; report: () => unknown }>();
  const subcommands: PluginServices["subcommands"] = new Map();
  const statusOf = (id: string): unknown => {
    const s = statuses.get(id);
    if (!s) return undefined;
    return s.report();
  };
  let waker: ((sessionId: string, text: string) => boolean) | undefined;
  return {
    commands,
    mentionCompleters,
    subcommands,
    pluginStatus: statusOf as PluginServices["pluginStatus"],
    setWaker: (w) => void (waker = w),
    host: {
      addCommand: (spec, source) => commands.add(spec, source),
      removeCommand: (name, spec) => commands.remove(name, spec),
      addMentions: (complete, source) => {
        const entry = { source, complete };
        mentionCompleters.push(entry);
        return () => {
          const i = mentionCompleters.indexOf(entry);
          if (i >= 0) mentionCompleters.splice(i, 1);
        };
      },
      setStatus: (source, report, owner) => {
        const had = statuses.get(source);
        if (had && had.owner !== owner) throw new Error(`${source}: another plugin already reports under the id '${source}'`);
        statuses.set(source, { owner, report });
      },
      statusOf,
      addSubcommand: (spec, source) => {
        if (!/^[a-z][a-z0-9-]*$/.test(spec.name)) throw new Error(`'${spec.name}' is not a subcommand name ([a-z][a-z0-9-]*)`);
        if (reserved(spec.name)) throw new Error(`'deepcode ${spec.name}' is one of deepcode's own subcommands`);
        const had = subcommands.get(spec.name);
        if (had) throw new Error(`'deepcode ${spec.name}' is taken by ${had.source}`);
        const entry = { spec, source };
        subcommands.set(spec.name, entry);
        return () => {
          if (subcommands.get(spec.name) === entry) subcommands.delete(spec.name);
        };
      },
      wake: (sessionId, text) => waker?.(sessionId, text) ?? false,
      connect: (url, signal) => openSocket(targetOf(url), { env: LOOPBACK.test(url.hostname) ? {} : env }, signal),
    },
  };
}
