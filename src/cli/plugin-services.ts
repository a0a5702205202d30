// What the plugin host offers plugins besides hooks and tools (src/contract/plugin.ts): slash
// commands (api.command), `@` completion (api.mentions), status reports (api.status) and
// connections made the way deepcode's own requests are (api.connect: the proxy variables,
// loopback always direct). Assembly keeps these on the App, where the REPL and the
// subcommands find them.

import type { JsonValue, MentionCompleter } from "../contract/index.js";
import { CommandRegistry } from "../core/commands.js";
import type { PluginHost } from "../core/plugins.js";
import { openSocket, targetOf } from "../providers/index.js";

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\]|::1)$/i;

export interface PluginServices {
  commands: CommandRegistry;
  mentionCompleters: Array<{ source: string; complete: MentionCompleter }>;
  pluginStatus(id: string): JsonValue | undefined;
  /** The REPL's answer to PluginApi.wake while it waits at its prompt (none: nobody to wake). */
  setWaker(waker: ((sessionId: string, text: string) => boolean) | undefined): void;
  host: Required<Pick<PluginHost, "addCommand" | "removeCommand" | "addMentions" | "setStatus" | "connect" | "wake">>;
}

export function pluginServices(env: NodeJS.ProcessEnv): PluginServices {
  const commands = new CommandRegistry();
  const mentionCompleters: PluginServices["mentionCompleters"] = [];
  const statuses = new Map<string, () => JsonValue>();
  let waker: ((sessionId: string, text: string) => boolean) | undefined;
  return {
    commands,
    mentionCompleters,
    pluginStatus: (id) => statuses.get(id)?.(),
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
      setStatus: (source, report) => void statuses.set(source, report),
      wake: (sessionId, text) => waker?.(sessionId, text) ?? false,
      connect: (url, signal) => openSocket(targetOf(url), { env: LOOPBACK.test(url.hostname) ? {} : env }, signal),
    },
  };
}
