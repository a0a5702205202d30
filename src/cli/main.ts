// The command line: parse arguments, then hand over to a subcommand, `-p`, or the REPL.
// Exit codes: 0 completed, 1 error, 2 usage error, 130 interrupted.

import { parseArgs } from "node:util";
import { ConfigError, NotImplementedError } from "../contract/index.js";
import { packageVersion } from "./version.js";

export const HELP = `deepcode — a terminal coding agent for the DeepSeek API

Usage:
  deepcode                      open the interactive REPL in this project
  deepcode -p "prompt"          run one prompt non-interactively (stdin is added as context)
  deepcode <command>            setup | doctor | permissions | stats | sessions

Options:
  -p, --print                   non-interactive: run the prompt, print the result, exit
      --output-format FORMAT    text (default) | json | stream-json   (with -p)
  -c, --continue                continue the latest session of this directory
  -r, --resume [ID]             resume a session by id (without ID: pick one)
  -m, --model NAME              model to use (default deepseek-flash)
      --max-turns N             stop after N model rounds in a turn (stop reason max_turns)
      --settings FILE           an extra settings layer (above local, below managed policy)
      --append-system-prompt T  append text to the system prompt (part of the cached prefix)
      --events                  list the event catalogue and what implements each event
  -h, --help                    show this help
  -v, --version                 print the version

Environment:
  DEEPSEEK_API_KEY              the API key (or run \`deepcode setup\`)
  DEEPSEEK_BASE_URL             API base URL (default https://api.deepseek.com)
  DEEPCODE_HOME                 deepcode's home folder (default ~/.deepcode)
  HTTPS_PROXY, NO_PROXY         proxy for API requests
  NO_COLOR                      plain output
`;

export const OPTIONS = {
  print: { type: "boolean", short: "p" },
  "output-format": { type: "string" },
  continue: { type: "boolean", short: "c" },
  resume: { type: "string", short: "r" },
  model: { type: "string", short: "m" },
  "max-turns": { type: "string" },
  settings: { type: "string" },
  "append-system-prompt": { type: "string" },
  events: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
} as const;

export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: normaliseResume(argv), options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    process.stderr.write(`deepcode: ${(err as Error).message}\nRun 'deepcode --help' for usage.\n`);
    return 2;
  }
  const { values } = parsed;
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (values.version) {
    process.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  try {
    if (values.events) {
      const { describeEvents } = await import("./events-list.js");
      const { assemble } = await import("./assemble.js");
      const app = await assemble({ root: process.cwd(), quiet: true });
      process.stdout.write(`${describeEvents(app.chain)}\n`);
      return 0;
    }
    throw new NotImplementedError("the REPL and -p (see the open issues)");
  } catch (err) {
    if (err instanceof ConfigError || err instanceof NotImplementedError) {
      process.stderr.write(`deepcode: ${err.message}\n`);
      return err instanceof ConfigError ? 2 : 1;
    }
    throw err;
  }
}

/** `-r` without an id means "pick one": parseArgs wants a value, so give it an empty one. */
function normaliseResume(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    out.push(a);
    if ((a === "-r" || a === "--resume") && (i + 1 >= argv.length || argv[i + 1].startsWith("-"))) out.push("");
  }
  return out;
}
