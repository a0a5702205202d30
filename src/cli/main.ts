// The command line: parse arguments, then hand over to a subcommand, `-p`, or the REPL.
// Exit codes: 0 completed, 1 error, 2 usage error, 130 interrupted.

import { parseArgs } from "node:util";
import { ConfigError, NotImplementedError, ProviderError } from "../contract/index.js";
import { packageVersion } from "./version.js";

export const HELP = `deepcode — a terminal coding agent for the DeepSeek API

Usage:
  deepcode                      open the interactive REPL in this project
  deepcode -p "prompt"          run one prompt non-interactively (stdin is added as context)
  deepcode <command>            setup | doctor | permissions | stats | sessions | trust | mcp
  deepcode mcp list | get NAME | add NAME -- CMD ARGS… | add --transport http|sse NAME URL
               | remove NAME    MCP servers (--scope local|project|user; see deepcode mcp --help)

Options:
  -p, --print                   non-interactive: run the prompt, print the result, exit
      --output-format FORMAT    text (default) | json | stream-json   (with -p)
  -c, --continue                continue the latest session of this directory
  -r, --resume [ID]             resume a session by id (without ID: pick one)
  -m, --model NAME              model to use (default deepseek-flash)
      --max-turns N             stop after N model rounds in a turn (stop reason max_turns)
      --settings FILE           an extra settings layer (above local, below managed policy)
      --append-system-prompt T  append text to the system prompt (part of the cached prefix)
      --trust-project           trust this project's own settings and commands for this run
                                (an untrusted project's files may only tighten; see \`deepcode trust\`)
      --mcp-config FILE|JSON    MCP servers from this file (or JSON text); repeatable
      --strict-mcp-config       use only the --mcp-config servers, none of the configured ones
      --events                  list the event catalogue and what implements each event
  -h, --help                    show this help
  -v, --version                 print the version

Project files (Claude Code's work unchanged; see README):
  AGENTS.md (or CLAUDE.md)      project instructions, in the system prompt
  .deepcode/skills/NAME/SKILL.md, .claude/skills/…, ~/.deepcode/skills/…, ~/.claude/skills/…
                                skills: indexed for the model, loaded with the Skill tool or /NAME
  .deepcode/agents/*.md, .claude/agents/*.md, ~/.deepcode/agents/, ~/.claude/agents/
                                subagent types for the Task tool (built in: general-purpose, explore)
  .deepcode/commands/*.md, .claude/commands/*.md   custom slash commands

Environment:
  DEEPSEEK_API_KEY              the API key (or run \`deepcode setup\`)
  DEEPSEEK_BASE_URL             API base URL (default https://api.deepseek.com)
  DEEPCODE_HOME                 deepcode's home folder (default ~/.deepcode)
  HTTPS_PROXY, NO_PROXY         proxy for API requests
  MCP_TIMEOUT, MCP_TOOL_TIMEOUT MCP server start-up and tool call limits (ms)
  MAX_MCP_OUTPUT_TOKENS         bound on one MCP tool result (default 25000)
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
  "trust-project": { type: "boolean" },
  "mcp-config": { type: "string", multiple: true },
  "strict-mcp-config": { type: "boolean" },
  events: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
} as const;

/** Things only code can set, never a user: the `deepcode` bin passes none. Tests start a real
 *  process through a wrapper that passes a managed-policy path here, as an administrator's
 *  file would be found at the OS path. */
export interface Internal {
  managedPath?: string;
}

export async function main(argv: string[], internal: Internal = {}): Promise<number> {
  // `deepcode [options] <command> [its own options]`: global options are parsed up to the
  // subcommand; what follows belongs to it.
  const at = subcommandIndex(argv);
  let parsed;
  try {
    parsed = parseArgs({ args: normaliseResume(at < 0 ? argv : argv.slice(0, at)), options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    return usage((err as Error).message);
  }
  const { values } = parsed;
  const positionals = at < 0 ? parsed.positionals : argv.slice(at);
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (values.version) {
    process.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  const format = values["output-format"] ?? "text";
  if (format !== "text" && format !== "json" && format !== "stream-json") return usage(`--output-format must be text, json or stream-json, not '${format}'`);
  const maxTurns = values["max-turns"] === undefined ? undefined : Number(values["max-turns"]);
  if (maxTurns !== undefined && (!Number.isInteger(maxTurns) || maxTurns < 1)) return usage(`--max-turns needs a whole number ≥ 1, not '${values["max-turns"]}'`);
  exitOnSignals();
  try {
    // Nothing heavy is imported before a branch is chosen: the REPL shows its prompt first and
    // loads the engine behind it.
    const root = process.cwd();
    const options = { root, flagSettings: values.settings, model: values.model, maxTurns, appendSystemPrompt: values["append-system-prompt"], managedPath: internal.managedPath, trustProject: values["trust-project"], mcpConfig: values["mcp-config"], strictMcpConfig: values["strict-mcp-config"] };
    if (values.events) {
      const { assemble } = await import("./assemble.js");
      const { describeEvents } = await import("./events-list.js");
      const app = await assemble(options);
      process.stdout.write(`${describeEvents(app.chain)}\n`);
      return 0;
    }
    const [command, ...rest] = positionals;
    if (!values.print && command && SUBCOMMANDS.has(command)) {
      const { runSubcommand } = await import("./subcommands.js");
      return await runSubcommand(command, rest, options);
    }
    if (values.print) {
      const prompt = await printPrompt(positionals.join(" "));
      if (!prompt) return usage("-p needs a prompt: deepcode -p \"…\" (or the prompt on stdin)");
      const { runPrint } = await import("./print.js");
      const { assemble } = await import("./assemble.js");
      const app = await assemble(options);
      if (!app.apiKey) {
        const { NO_KEY_HELP } = await import("./credentials.js");
        process.stderr.write(`deepcode: ${NO_KEY_HELP}\n`);
        return 1;
      }
      return await runPrint(app, { prompt, format, continue: values.continue, resume: values.resume || undefined });
    }
    const { runRepl } = await import("./repl/repl.js");
    return await runRepl(options, { continue: values.continue, resume: values.resume, initialPrompt: positionals.join(" ") || undefined });
  } catch (err) {
    if (String((err as NodeJS.ErrnoException).code).startsWith("ERR_PARSE_ARGS")) return usage((err as Error).message);
    if (err instanceof ConfigError || err instanceof NotImplementedError || err instanceof ProviderError) {
      process.stderr.write(`deepcode: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
}

const SUBCOMMANDS = new Set(["setup", "doctor", "permissions", "stats", "sessions", "trust", "mcp"]);

/** Where a subcommand stands in argv: the first word that is not an option or an option's
 *  value. Only when -p is not given: `deepcode -p stats` asks the model about "stats". */
function subcommandIndex(argv: string[]): number {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "-p" || a === "--print" || a === "--") return -1;
    if (a.startsWith("-")) {
      const name = a.replace(/^-+/, "").split("=")[0];
      const opt = Object.entries(OPTIONS).find(([long, o]) => long === name || ("short" in o && o.short === name));
      if (opt && opt[1].type === "string" && !a.includes("=") && !(opt[0] === "resume" && (argv[i + 1] ?? "-").startsWith("-"))) i++;
      continue;
    }
    return SUBCOMMANDS.has(a) ? i : -1;
  }
  return -1;
}

function usage(message: string): number {
  process.stderr.write(`deepcode: ${message}\nRun 'deepcode --help' for usage.\n`);
  return 2;
}

/** The prompt for -p: the argument; stdin (when piped) is the prompt, or context for it. */
async function printPrompt(arg: string): Promise<string> {
  if (process.stdin.isTTY) return arg.trim();
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  const stdin = Buffer.concat(chunks).toString("utf8").trim();
  if (!arg.trim()) return stdin;
  return stdin ? `${arg.trim()}\n\n<stdin>\n${stdin}\n</stdin>` : arg.trim();
}

/** SIGTERM and SIGHUP end deepcode through process.exit, so its exit handler kills every child
 *  process group (no child outlives deepcode). SIGINT is handled where a turn can be cut short. */
function exitOnSignals(): void {
  for (const sig of ["SIGTERM", "SIGHUP"] as const) process.once(sig, () => process.exit(sig === "SIGTERM" ? 143 : 129));
  // A reader that went away (`deepcode -p … | head`) is not an error worth a stack trace.
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE") process.exit(0);
    throw err;
  });
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
