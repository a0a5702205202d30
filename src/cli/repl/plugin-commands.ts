// Slash commands plugins contribute (PluginApi.command) as the REPL runs them: listed after the
// built-in and custom commands (a name one of those has is left out: the person's own command
// wins), run with the terminal's keys read as during a turn (so the command can ask, and
// Ctrl-C aborts its signal), `submit` running a turn in between. Tab completion asks their
// completers and the `@` completers too, which may answer asynchronously (an MCP server).

import { finishWord } from "../complete.js";
import type { MentionCompleter } from "../../contract/index.js";
import type { CommandRegistry, RegisteredCommand } from "../../core/commands.js";
import type { Style } from "../render/style.js";
import type { SlashCommand } from "./commands.js";
import type { TurnKeys } from "./keys.js";

export interface PluginCommandDeps {
  keys: TurnKeys;
  sessionId(): string;
  print(text: string): void;
  runTurn(prompt: string): Promise<void>;
  style: Style;
}

/** How long Tab waits for a plugin's candidates before it offers what it has. */
const COMPLETION_WAIT_MS = 1500;

export function pluginCommands(list: readonly RegisteredCommand[], taken: ReadonlySet<string>, d: PluginCommandDeps): SlashCommand[] {
  return list
    .filter((c) => !taken.has(c.spec.name))
    .map((c) => ({
      name: c.spec.name,
      args: c.spec.args,
      description: c.spec.description,
      run: async (_r, args) => {
        let ctl = new AbortController();
        const start = (): void => d.keys.start(() => ctl.abort());
        start();
        try {
          await c.spec.run({
            args,
            sessionId: d.sessionId(),
            get signal() {
              return ctl.signal;
            },
            interactive: true,
            print: d.print,
            submit: async (prompt) => {
              d.keys.stop(); // the turn reads the keys itself
              try {
                await d.runTurn(prompt);
              } finally {
                ctl = new AbortController();
                start();
              }
            },
          });
        } finally {
          d.keys.stop();
        }
      },
    }));
}

/** The REPL's own candidates, with what plugins add for this line. */
export async function completeWithPlugins(line: string, own: [string[], string], commands: CommandRegistry, mentions: ReadonlyArray<{ complete: MentionCompleter }>): Promise<[string[], string]> {
  const word = own[1];
  const extra: string[] = [];
  if (word.startsWith("@") && !word.startsWith('@"')) {
    for (const m of mentions) extra.push(...(await bounded(Promise.resolve().then(() => m.complete(word)))));
  } else {
    const words = line.trimStart().split(/\s+/);
    const c = words[0].startsWith("/") && words.length > 1 ? commands.get(words[0].slice(1)) : undefined;
    if (c?.spec.complete) extra.push(...(await bounded(Promise.resolve().then(() => c.spec.complete!(word, words.slice(1, -1))))));
  }
  const all = [...new Set([...own[0].map((x) => x.trimEnd()), ...extra.filter((x) => x.startsWith(word))])].sort();
  return [finishWord(all), word];
}

async function bounded(p: Promise<readonly string[]>): Promise<readonly string[]> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([p, new Promise<readonly string[]>((r) => (timer = setTimeout(() => r([]), COMPLETION_WAIT_MS)))]);
  } catch {
    return []; // a completer that fails offers nothing
  } finally {
    clearTimeout(timer);
  }
}
