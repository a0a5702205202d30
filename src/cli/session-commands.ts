// Slash commands in sessions a plugin drives (PluginApi.sessions: `deepcode acp`, an editor):
// a prompt `/name args` runs a custom command (project, person, enabled plugins: expanded as
// the REPL and `-p` expand it, commands/run.ts) or a command a mod contributes (skills, MCP
// prompts, /mcp, /plan: print-commands.ts's runner), and the turn its prompt makes streams as
// an ordinary turn's. Installed on the App by whoever runs a plugin's subcommand (it needs
// commands/run.ts, which assembly must not import).

import type { StreamEvent } from "../contract/index.js";
import type { App } from "./assemble.js";
import type { SessionCommandLines } from "./plugin-sessions.js";
import { loadCustomCommands } from "./commands/custom.js";
import { commandLine, runCustomCommand } from "./commands/run.js";
import { runPluginCommand } from "./print-commands.js";


export function sessionCommandLines(app: App): SessionCommandLines {
  const custom = () => {
    const loaded = loadCustomCommands({ root: app.root, home: app.home, plugins: app.pluginStatus("marketplace")?.commands ?? [] });
    return loaded.commands;
  };
  return {
    list() {
      const own = custom().map((c) => ({ name: c.name, description: c.description || `custom command (${c.scope})`, ...(c.argumentHint ? { hint: c.argumentHint } : {}) }));
      const taken = new Set(own.map((c) => c.name));
      const contributed = app.commands.list().filter((c) => !taken.has(c.spec.name)).map((c) => ({ name: c.spec.name, description: c.spec.description, ...(c.spec.args ? { hint: c.spec.args } : {}) }));
      return [...own, ...contributed];
    },
    async settled() {
      // "" asks each command for every name it may still bring (CommandSpec.settle).
      await Promise.allSettled(app.commands.list().flatMap((c) => (c.spec.settle ? [c.spec.settle("")] : [])));
    },
    run(engine, text, o) {
      const named = commandLine(text, custom(), (n) => app.commands.get(n) !== undefined);
      const m = named ? undefined : /^\/(\S+)\s*([\s\S]*)$/.exec(text.trim());
      const contributed = m ? app.commands.get(m[1]) : undefined;
      if (!named && !contributed) return undefined;
      const signal = o.signal ?? new AbortController().signal;
      return streamOf(async (push) => {
        const turn = async (prompt: string): Promise<void> => {
          for await (const ev of engine.submit(prompt, { signal })) push(ev);
        };
        if (named) await runCustomCommand(app, engine, named.command, named.args, { expand: (fn) => fn(signal), warn: o.print, turn });
        else if (contributed && m) {
          const ran = await runPluginCommand(contributed, m[2], { sessionId: engine.sessionId, signal, turn });
          if (ran.printed) o.print(ran.printed);
        }
      });
    },
  };
}

/** The events `body` pushes, as an async iterable that ends when it settles (its error rethrown). */
async function* streamOf(body: (push: (ev: StreamEvent) => void) => Promise<void>): AsyncIterable<StreamEvent> {
  const queue: StreamEvent[] = [];
  let wake: (() => void) | undefined;
  let done = false;
  let failure: unknown;
  const settled = body((ev) => {
    queue.push(ev);
    wake?.();
  }).then(
    () => void (done = true),
    (err: unknown) => void ((failure = err), (done = true)),
  ).finally(() => wake?.());
  while (true) {
    while (queue.length > 0) yield queue.shift() as StreamEvent;
    if (done) break;
    await new Promise<void>((resolve) => (wake = resolve));
    wake = undefined;
  }
  await settled;
  if (failure !== undefined) throw failure;
}
