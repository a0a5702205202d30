// The command line's vocabulary in one table: every global option and every subcommand with its
// own options. `--help` is generated from it, parsing checks against it, and an unknown option
// is answered with the closest known one. Adding an option or a subcommand is one row here (and
// its handling where it is used).

import { closest } from "../lib/closest.js";
import { parseArgs } from "node:util";

export interface OptionSpec {
  /** The long name without dashes (`output-format`, `allowedTools`). */
  name: string;
  short?: string;
  type: "boolean" | "string";
  /** The value's placeholder in help (`FORMAT`); `[ID]` marks a value that may be left out. */
  value?: string;
  /** May be given more than once (the values accumulate). */
  multiple?: boolean;
  /** Claude Code's variadic form (`--flag <values...>`): after `--flag`, every following word
   *  up to the next option (a word starting with `-`) or `--` is one more value; `--flag=v`
   *  takes `v` alone. Implies `multiple`. */
  variadic?: boolean;
  /** Other spellings that mean the same option (Claude Code accepts both for a few). */
  aliases?: string[];
  help: string;
}

export interface SubcommandSpec {
  name: string;
  /** Positional arguments it takes, for help (`[ID]`); none when absent. */
  args?: string;
  /** How many positional arguments it accepts (default 0). */
  maxArgs?: number;
  help: string;
  options: OptionSpec[];
  /** It reads its own arguments (verbs, `--` and all) and answers its own `--help`; `options`
   *  are listed in the main help only. */
  ownArgs?: boolean;
  /** A built-in mod adds it (api.subcommand): deepcode assembles, then runs the mod's own
   *  (it reads its own arguments and answers its own `--help`). The row is its line in help. */
  mod?: boolean;
}

const HELP_OPTION: OptionSpec = { name: "help", short: "h", type: "boolean", help: "show this help" };

export const GLOBAL_OPTIONS: OptionSpec[] = [
  { name: "print", short: "p", type: "boolean", help: "non-interactive: run the prompt, print the result, exit" },
  { name: "output-format", type: "string", value: "FORMAT", help: "text (default) | json | stream-json   (with -p; Claude Code's headless format)" },
  { name: "input-format", type: "string", value: "FORMAT", help: "text (default) | stream-json: user messages as JSON lines on stdin (with -p --output-format stream-json)" },
  { name: "include-partial-messages", type: "boolean", help: "stream-json: also print the streamed deltas as stream_event lines" },
  { name: "verbose", type: "boolean", help: "stream-json: the stream_event lines too (as --include-partial-messages); accepted, and nothing more, elsewhere" },
  { name: "continue", short: "c", type: "boolean", help: "continue the latest session of this directory" },
  { name: "resume", short: "r", type: "string", value: "[ID]", help: "resume a session by id (without ID: pick one; -p needs the id)" },
  { name: "fork-session", type: "boolean", help: "with -c or -r: continue a copy of the session under a new id (the original is left as it is; also when another deepcode is writing it)" },
  { name: "model", short: "m", type: "string", value: "NAME", help: "model to use (default deepseek-flash)" },
  { name: "max-turns", type: "string", value: "N", help: "stop after N model rounds in a turn (subtype error_max_turns)" },
  { name: "settings", type: "string", value: "FILE", help: "an extra settings layer (above local, below managed policy)" },
  { name: "allowedTools", type: "string", value: "RULES...", multiple: true, variadic: true, aliases: ["allowed-tools"], help: "allow rules for this run: \"Read,Bash(npm test:*)\" or Read \"Bash(npm test:*)\" (every word up to the next option)" },
  { name: "disallowedTools", type: "string", value: "RULES...", multiple: true, variadic: true, aliases: ["disallowed-tools"], help: "deny rules for this run, the same grammar" },
  { name: "permission-mode", type: "string", value: "MODE", help: "default | acceptEdits (Edit/Write inside the project without asking) | plan (read-only planning turns; -p prints the plan)" },
  { name: "append-system-prompt", type: "string", value: "TEXT", help: "append text to the system prompt (part of the cached prefix)" },
  { name: "mcp-config", type: "string", value: "FILE|JSON...", multiple: true, variadic: true, help: "MCP servers from these files (or JSON texts); every word up to the next option, repeatable" },
  { name: "strict-mcp-config", type: "boolean", help: "use only the --mcp-config servers, none of the configured ones" },
  { name: "trust-project", type: "boolean", help: "trust this project's own settings and commands for this run (see deepcode trust)" },
  { name: "events", type: "boolean", help: "list the event catalogue and what implements each event" },
  HELP_OPTION,
  { name: "version", short: "v", type: "boolean", help: "print the version" },
];

export const SUBCOMMANDS: SubcommandSpec[] = [
  { name: "setup", help: "store the DeepSeek API key (hidden prompt, or one line on stdin) and check it", options: [{ name: "force", type: "boolean", help: "store a key that does not look like DeepSeek's without a warning" }, HELP_OPTION] },
  { name: "doctor", help: "check key, network, settings, sandbox, instructions, rg and file modes; each problem with its fix", options: [HELP_OPTION] },
  {
    name: "policy",
    help: "policy check FILE: check a managed policy before it is deployed (every problem with file:line; exit 1 on an error)",
    options: [HELP_OPTION],
    ownArgs: true,
  },
  { name: "permissions", help: "every permission rule and the layer (or flag) it comes from", options: [HELP_OPTION] },
  { name: "sessions", help: "this project's sessions: id, date, turns, cost, first prompt", options: [HELP_OPTION] },
  {
    name: "mcp",
    args: "VERB …",
    help: "MCP servers: list, get, approve, login, logout, add, add-json, remove (deepcode mcp --help)",
    options: [{ name: "scope", short: "s", type: "string", value: "local|project|user", help: "where add and remove write (default local)" }, HELP_OPTION],
    ownArgs: true,
    mod: true,
  },
  {
    name: "plugin",
    args: "VERB …",
    help: "Claude Code plugins and marketplaces: list, install, update, verify, enable, disable, uninstall, marketplace (deepcode plugin --help)",
    options: [
      { name: "scope", short: "s", type: "string", value: "user|project|local", help: "where install, enable and disable write enabledPlugins (default user)" },
      { name: "yes-install", type: "boolean", help: "install or update without being asked (needed where there is no terminal)" },
      { name: "accept", type: "boolean", help: "verify: re-pin the named plugins to their files as they are now (you changed them on purpose)" },
      HELP_OPTION,
    ],
    ownArgs: true,
    mod: true,
  },
  {
    name: "trust",
    help: "workspace trust: trust this project's own settings and commands as they are now",
    options: [
      { name: "show", type: "boolean", help: "say whether it is trusted and what trusting it lets take effect" },
      { name: "revoke", type: "boolean", help: "keep it untrusted (the REPL stops asking until it changes)" },
      HELP_OPTION,
    ],
  },
  {
    name: "rewind",
    help: "go back to the end of a turn of a session: its files, its conversation, or both (the default)",
    options: [
      { name: "session", type: "string", value: "ID", help: "the session (deepcode sessions lists them)" },
      { name: "turn", type: "string", value: "N", help: "the turn whose end to go back to (0: before the first)" },
      { name: "files", type: "boolean", help: "only put back the files later turns changed" },
      { name: "conversation", type: "boolean", help: "only cut the conversation after that turn (it stays cached)" },
      { name: "force", type: "boolean", help: "overwrite files changed on disk since (otherwise they are kept, exit 1)" },
      HELP_OPTION,
    ],
    ownArgs: true,
    mod: true,
  },
  {
    name: "telemetry",
    help: "what the local telemetry file recorded (when your settings turned it on; the telemetry mod's)",
    options: [{ name: "json", type: "boolean", help: "the summary as JSON" }, HELP_OPTION],
    ownArgs: true,
    mod: true,
  },
  {
    name: "sandbox",
    help: "what contains Bash commands here, or what protects you without it (the sandbox mod's)",
    options: [{ name: "profile", type: "boolean", help: "print the macOS Seatbelt profile deepcode would use for this project (not run on a Mac yet)" }, HELP_OPTION],
    ownArgs: true,
    mod: true,
  },
  { name: "acp", mod: true, ownArgs: true, help: "speak the Agent Client Protocol on stdin/stdout: deepcode as an editor's agent (Zed, JetBrains, Neovim)", options: [HELP_OPTION] },
  {
    name: "run",
    args: "NAME [ARGS…]",
    help: "run a subcommand a plugin adds (its --help says what it takes; deepcode run with no name lists them)",
    options: [HELP_OPTION],
    ownArgs: true,
  },
  {
    name: "stats",
    help: "cost by day and month, cache savings, how often estimates were right",
    options: [
      { name: "json", type: "boolean", help: "the figures as JSON" },
      { name: "estimates", type: "boolean", help: "how often the pre-turn estimate held the actual cost" },
      { name: "by", type: "string", value: "day|month", help: "only one table" },
      { name: "currency", type: "string", value: "USD|CNY", help: "the currency to show" },
      { name: "telemetry", type: "boolean", help: "what the local telemetry file recorded (when your settings turned it on)" },
      HELP_OPTION,
    ],
  },
];

/** Whether `deepcode <name>` is one of deepcode's own subcommands: a plugin cannot take it
 *  (a built-in mod's row, `mod: true`, is the mod's to take). */
export function isOwnSubcommand(name: string): boolean {
  return SUBCOMMANDS.some((s) => s.name === name && !s.mod) || name === "help";
}

export function subcommand(name: string): SubcommandSpec | undefined {
  return SUBCOMMANDS.find((s) => s.name === name);
}

import { UsageError } from "../contract/index.js";
export { UsageError };

export type Parsed = {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
  /** Variadic options that took more than one word (`--allowedTools A B`): `-p` names them
   *  when no prompt is left, since the prompt may have been taken as a value. */
  variadicTook?: Array<{ option: string; words: string[] }>;
};

/** Claude Code's variadic options, as repeated ones: `--flag a b c` → `--flag a --flag b
 *  --flag c`, up to the next word starting with `-` or `--` (commander's rule, which Claude
 *  Code's CLI uses). `--flag=a` is one value. */
export function expandVariadic(args: readonly string[], specs: readonly OptionSpec[]): { args: string[]; took: NonNullable<Parsed["variadicTook"]> } {
  const variadic = new Map<string, OptionSpec>();
  for (const s of specs) if (s.variadic) for (const n of [s.name, ...(s.aliases ?? [])]) variadic.set(n, s);
  const out: string[] = [];
  const took: NonNullable<Parsed["variadicTook"]> = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    out.push(a);
    if (a === "--") {
      out.push(...args.slice(i + 1));
      break;
    }
    const spec = a.startsWith("--") && !a.includes("=") ? variadic.get(a.slice(2)) : undefined;
    if (!spec) {
      // another string option's value is never an option name, whatever it looks like
      const other = a.startsWith("--") && !a.includes("=") ? specs.find((s) => s.type === "string" && (s.name === a.slice(2) || s.aliases?.includes(a.slice(2)))) : undefined;
      const short = /^-[A-Za-z]$/.test(a) ? specs.find((s) => s.short === a[1] && s.type === "string") : undefined;
      if ((other || short) && i + 1 < args.length) out.push(args[++i]);
      continue;
    }
    const words: string[] = [];
    while (i + 1 < args.length && !args[i + 1].startsWith("-")) words.push(args[++i]);
    if (words.length === 0) continue; // checkKnown says it needs a value
    out.push(words[0]);
    for (const w of words.slice(1)) out.push(a, w);
    if (words.length > 1) took.push({ option: a, words });
  }
  return { args: out, took };
}

/** Parse `args` against `specs` with util.parseArgs, after checking every option against the
 *  table so that an unknown one gets deepcode's own message with the closest known option. */
export function parseOptions(given: string[], specs: readonly OptionSpec[], o: { positionals?: boolean; where?: string } = {}): Parsed {
  checkKnown(given, specs, o.where ?? "deepcode");
  const { args, took } = expandVariadic(given, specs);
  const options: Record<string, { type: "boolean" | "string"; short?: string; multiple?: boolean }> = {};
  for (const s of specs) {
    options[s.name] = { type: s.type, ...(s.short ? { short: s.short } : {}), ...(s.multiple ? { multiple: true } : {}) };
    for (const a of s.aliases ?? []) options[a] = { type: s.type, ...(s.multiple ? { multiple: true } : {}) };
  }
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: o.positionals ?? false, strict: true });
  } catch (err) {
    throw new UsageError(parseArgsMessage(err, o.where ?? "deepcode"));
  }
  const values = { ...parsed.values } as Parsed["values"];
  for (const s of specs) {
    for (const a of s.aliases ?? []) {
      const v = values[a];
      if (v === undefined) continue;
      values[s.name] = s.multiple ? [...((values[s.name] as string[] | undefined) ?? []), ...(v as string[])] : v;
      delete values[a];
    }
  }
  return { values, positionals: parsed.positionals, ...(took.length ? { variadicTook: took } : {}) };
}

function checkKnown(args: string[], specs: readonly OptionSpec[], where: string): void {
  const longs = new Map<string, OptionSpec>();
  for (const s of specs) for (const n of [s.name, ...(s.aliases ?? [])]) longs.set(n, s);
  const shorts = new Map(specs.filter((s) => s.short).map((s) => [s.short as string, s]));
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--") return;
    if (!a.startsWith("-") || a === "-") continue;
    if (a.startsWith("--")) {
      const name = a.slice(2).split("=")[0];
      const spec = longs.get(name);
      if (!spec) throw new UsageError(unknownMessage(`--${name}`, closest(name, [...longs.keys()]), where));
      if (spec.type === "boolean" && a.includes("=")) throw new UsageError(`option --${name} takes no value`);
      if (spec.type === "string" && !a.includes("=")) {
        if (i + 1 >= args.length && !spec.value?.startsWith("[")) throw new UsageError(`option --${name} needs a value (${spec.value ?? "VALUE"})`);
        i++;
      }
      continue;
    }
    // -p, -pc, -mNAME: every letter up to a string option must be known.
    for (let k = 1; k < a.length; k++) {
      const spec = shorts.get(a[k]);
      if (!spec) throw new UsageError(unknownMessage(`-${a[k]}`, undefined, where));
      if (spec.type === "string") {
        if (k === a.length - 1) i++;
        break;
      }
    }
  }
}

function unknownMessage(option: string, near: string | undefined, where: string): string {
  const hint = near ? `; did you mean --${near}?` : "";
  return `unknown option ${option}${hint} (${where} --help lists the options)`;
}

/** What util.parseArgs said, in one line of our own (the table check catches most cases first). */
function parseArgsMessage(err: unknown, where: string): string {
  const e = err as NodeJS.ErrnoException;
  const m = /'(-[^']+)'/.exec(e.message ?? "");
  if (e.code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") return `${where} takes no argument ${m ? m[1] : ""}`.trim();
  if (e.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") return `option ${m ? m[1] : ""} needs a value`.replace("  ", " ");
  return (e.message ?? String(err)).split(/\.\s/)[0];
}

/** Split `--allowedTools` values: commas or spaces outside parentheses separate rules. */
export function splitRules(values: readonly string[]): string[] {
  const out: string[] = [];
  for (const v of values) {
    let depth = 0;
    let cur = "";
    for (const ch of v) {
      if (ch === "(") depth++;
      else if (ch === ")") depth = Math.max(0, depth - 1);
      if (depth === 0 && (ch === "," || /\s/.test(ch))) {
        if (cur.trim()) out.push(cur.trim());
        cur = "";
        continue;
      }
      cur += ch;
    }
    if (cur.trim()) out.push(cur.trim());
  }
  return out;
}

function optionLines(specs: readonly OptionSpec[], indent: string): string[] {
  const head = (s: OptionSpec) => `${s.short ? `-${s.short}, ` : "    "}--${s.name}${s.value ? ` ${s.value}` : ""}`;
  const width = Math.max(28, ...specs.map((s) => head(s).length + 2));
  return specs.map((s) => `${indent}${head(s).padEnd(width)}${s.help}${s.aliases?.length ? ` (also --${s.aliases.join(", --")})` : ""}`);
}

/** The main `--help`: usage, global options, every subcommand with its own options. */
export function mainHelp(): string {
  const subs = SUBCOMMANDS.flatMap((c) => {
    const own = c.options.filter((o) => o.name !== "help");
    return [`  deepcode ${c.name}${c.args ? ` ${c.args}` : ""}`.padEnd(34) + c.help, ...optionLines(own, "      ")];
  });
  return [
    "deepcode — a terminal coding agent for the DeepSeek API",
    "",
    "Usage:",
    "  deepcode [options]            open the interactive REPL in this project",
    '  deepcode -p "prompt"          run one prompt non-interactively (stdin is added as context)',
    "  deepcode <command> [options]  one of the commands below (each answers --help)",
    "",
    "Options:",
    ...optionLines(GLOBAL_OPTIONS, "  "),
    "",
    "Commands:",
    ...subs,
    "",
    "Output of -p (Claude Code's headless format): text prints the answer; json prints one result",
    "object {type, subtype (success | error_max_turns | error_during_execution), is_error, result,",
    "session_id, num_turns, duration_ms, duration_api_ms, total_cost_usd, usage, permission_denials};",
    "stream-json prints one JSON object per line: system/init, assistant and user messages, the result last.",
    "Exit codes: 0 completed, 1 error (or any other stop), 2 usage error, 130 interrupted.",
    "",
    "Tools: Read Write Edit Bash Glob Grep Task Skill Remember TodoWrite, and through UseTool WebFetch",
    "(asks per host: WebFetch(domain:HOST) rules) and NotebookEdit. No WebSearch: a plugin or MCP",
    "server can provide one by that name. See README's Tools.",
    "",
    "Project files (Claude Code's work unchanged; see README):",
    "  AGENTS.md (or CLAUDE.md)      project instructions, in the system prompt; AGENTS.local.md (or",
    "                                CLAUDE.local.md) your private ones; `# text` or /memory adds a line",
    "  .deepcode/skills/NAME/SKILL.md, .claude/skills/…, ~/.deepcode/skills/…, ~/.claude/skills/…",
    "                                skills: indexed for the model, loaded with the Skill tool or /NAME",
    "  .deepcode/agents/*.md, .claude/agents/*.md, ~/.deepcode/agents/, ~/.claude/agents/",
    "                                subagent types for the Task tool (built in: general-purpose, explore)",
    "  .deepcode/commands/*.md, .claude/commands/*.md   custom slash commands",
    "  .mcp.json                     MCP servers (run once the project is trusted and each is approved)",
    "  .claude/hookify.NAME.local.md, .deepcode/hookify.NAME.local.md   hookify rules (warn or block)",
    "",
    "Environment:",
    "  DEEPSEEK_API_KEY              the API key (or run `deepcode setup`)",
    "  DEEPSEEK_BASE_URL             API base URL (default https://api.deepseek.com)",
    "  DEEPCODE_HOME                 deepcode's home folder (default ~/.deepcode)",
    "  HTTPS_PROXY, NO_PROXY         proxy for API requests",
    "  MCP_TIMEOUT, MCP_TOOL_TIMEOUT MCP server start-up and tool call limits (ms)",
    "  MAX_MCP_OUTPUT_TOKENS         bound on one MCP tool result, in tokens (default 25000)",
    "  NO_COLOR                      plain output",
    "",
  ].join("\n");
}

/** `deepcode <command> --help`. */
export function subcommandHelp(c: SubcommandSpec): string {
  return [`Usage: deepcode ${c.name}${c.args ? ` ${c.args}` : ""}${c.options.length > 1 ? " [options]" : ""}`, "", c.help, "", "Options:", ...optionLines(c.options, "  "), ""].join("\n");
}
export { closest } from "../lib/closest.js";
