// The REPL's entry: fast to the first prompt. Only light modules load before the prompt is on
// screen (style, readline, history, the key check); the engine, tools, providers, settings and
// plugins load in the background meanwhile (session.ts), and the rest of the banner appears
// above the prompt when they are ready. A resumed session waits for them first: it shows the
// earlier turns before the prompt.

import type { AssembleOptions } from "../assemble.js";
import { noKeyHelp, resolveApiKey } from "../credentials.js";
import { deepcodeHome } from "../home.js";
import { colourEnabled, makeStyle } from "../render/style.js";
import { CONTROL, control } from "../render/terminal.js";
import { packageVersion } from "../version.js";
import { History } from "./history.js";
import { readPrompt } from "./prompt.js";
import type { Repl, ReplStart } from "./session.js";

export type { ReplStart };

export async function runRepl(options: AssembleOptions, start: ReplStart): Promise<number> {
  // Loaded while the key and the terminal are checked: the trust question comes first.
  const trust = import("../trust/ask.js");
  trust.catch(() => undefined); // a failure to load surfaces where it is awaited, not as an unhandled rejection
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    process.stderr.write("deepcode: the interactive REPL needs a terminal; for scripts and pipes use deepcode -p \"…\"\n");
    return 2;
  }
  const env = options.env ?? process.env;
  const home = options.home ?? deepcodeHome(env);
  if (!resolveApiKey(env, home)) {
    process.stdout.write(`${noKeyHelp(home)}\n`);
    return 1;
  }
  // Bracketed paste: the terminal marks a paste, so it is taken whole (prompt.ts) and can never
  // answer a permission question (keys.ts). Turned off again however deepcode exits.
  control(process.stdout, CONTROL.pasteOn);
  process.on("exit", () => control(process.stdout, CONTROL.pasteOff));
  const style = makeStyle(colourEnabled(process.stdout));
  process.stdout.write(`${style("bold", "deepcode")} ${packageVersion()} · ${options.root}\n`);
  // Workspace trust is settled before anything of the project loads (its hooks, plugins).
  await (await trust).askTrust(options, style);
  const booting: Promise<Repl> = import("./session.js").then((m) => m.bootRepl(options, start, style));
  if (start.resume !== undefined || start.continue || start.initialPrompt) {
    const repl = await booting;
    process.stdout.write(`${repl.banner()}\n`);
    return repl.run(start);
  }
  let ready: Repl | undefined;
  booting.then((r) => (ready = r), () => undefined); // a failure is reported by the prompt below
  const first = await readPrompt({
    completer: (line: string, cb: (err: null | Error, r: [string[], string]) => void) =>
      ready ? void ready.completeAsync(line).then((r) => cb(null, r), () => cb(null, ready!.complete(line))) : cb(null, [[], line]),
    prompt: style("bold", "› "),
    continuation: style("dim", "… "),
    history: new History(home, options.root).forReadline(),
    exitHint: style("dim", "(press Ctrl-C again to exit, or Ctrl-D)"),
    interject: booting.then((r) => r.banner()),
  });
  const repl = await booting; // a failure to start (a malformed settings file…) surfaces here
  // The prompt ended before everything loaded: the rest of the banner now, above what runs.
  if (!first.interjected && first.kind === "line") process.stdout.write(`${repl.banner()}\n`);
  return repl.run(start, first);
}
