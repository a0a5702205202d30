// The command line: parse arguments, then hand over to a subcommand, `-p`, or the REPL.
// Exit codes: 0 completed, 1 error, 2 usage error, 130 interrupted.
// The options and subcommands are one table (options.ts): help, parsing and the "did you mean"
// of an unknown option all come from it.

import { existsSync } from "node:fs";
import { resolve } from "node:path";
// errors.js, not the contract's index: the start path loads only what it uses (bench startup).
import { ConfigError, NotImplementedError, ProviderError } from "../contract/errors.js";
import { packageVersion } from "./version.js";
import { deepcodeHome, unwritableHome } from "./home.js";
import { sealKeyEnv } from "./key-env.js";
import { guardTerminal } from "./render/terminal.js";
import { GLOBAL_OPTIONS, mainHelp, parseOptions, splitRules, subcommand, SUBCOMMANDS, UsageError, type Parsed } from "./options.js";
import type { AssembleOptions } from "./assemble.js";

/** Things only code can set, never a user: the `deepcode` bin passes none. Tests start a real
 *  process through a wrapper that passes a managed-policy path here, as an administrator's
 *  file would be found at the OS path. */
export interface Internal {
  managedPath?: string;
}

export type OutputFormat = "text" | "json" | "stream-json";

/** What the flags ask for, checked: anything wrong is a UsageError (exit 2). */
export interface Flags {
  print: boolean;
  format: OutputFormat;
  inputFormat: "text" | "stream-json";
  partial: boolean;
  verbose: boolean;
  continue: boolean;
  resume?: string;
  /** Variadic options that took several words (`--allowedTools A B`): named when `-p` finds
   *  no prompt left, since Claude Code's grammar takes the prompt as a value there too. */
  variadicTook?: Parsed["variadicTook"];
  /** --fork-session: -c / -r continue a copy under a new id. */
  fork: boolean;
  permissionMode: "default" | "acceptEdits" | "plan";
  options: AssembleOptions;
}

export async function main(argv: string[], internal: Internal = {}): Promise<number> {
  sealKeyEnv(); // first: the API key out of this process's environment (key-env.ts)
  // Every write to a terminal passes one gate: someone else's text cannot act on it (terminal.ts).
  guardTerminal(process.stdout);
  guardTerminal(process.stderr);
  // `deepcode [options] <command> [its own options]`: global options are parsed up to the
  // subcommand; what follows belongs to it.
  const at = subcommandIndex(argv);
  let parsed: Parsed;
  let flags: Flags;
  try {
    parsed = parseOptions(normaliseResume(at < 0 ? argv : argv.slice(0, at)), GLOBAL_OPTIONS, { positionals: true });
    if (parsed.values.help) {
      process.stdout.write(mainHelp());
      return 0;
    }
    if (parsed.values.version) {
      process.stdout.write(`${packageVersion()}\n`);
      return 0;
    }
    flags = { ...readFlags(parsed.values, internal), ...(parsed.variadicTook ? { variadicTook: parsed.variadicTook } : {}) };
  } catch (err) {
    if (err instanceof UsageError) return usage(err.message);
    if (err instanceof NotImplementedError) return failure(err.message);
    throw err;
  }
  const positionals = at < 0 ? parsed.positionals : argv.slice(at);
  exitOnSignals();
  const options = flags.options;
  try {
    // Nothing heavy is imported before a branch is chosen: the REPL shows its prompt first and
    // loads the engine behind it.
    if (parsed.values.events) {
      const { describeEvents } = await import("./events-list.js");
      const frontEnd = flags.print ? "print" : positionals[0] === "acp" ? "acp" : "repl";
      process.stdout.write(`${await describeEvents(options, frontEnd)}\n`);
      return 0;
    }
    const [command, ...rest] = positionals;
    if (!flags.print && command && subcommand(command)) {
      const { runSubcommand } = await import("./subcommands.js");
      return await runSubcommand(command, rest, options);
    }
    if (flags.print) {
      const { runPrintCommand } = await import("./print.js");
      return await runPrintCommand(flags, positionals.join(" "));
    }
    const { runRepl } = await import("./repl/repl.js");
    return await runRepl(options, { continue: flags.continue, resume: flags.resume, fork: flags.fork, initialPrompt: positionals.join(" ") || undefined });
  } catch (err) {
    if (err instanceof UsageError) return usage(err.message);
    if (err instanceof ConfigError || err instanceof NotImplementedError || err instanceof ProviderError || (err instanceof Error && err.name === "SessionBusyError")) return failure(err.message);
    const home = unwritableHome(err, options.home ?? deepcodeHome(options.env ?? process.env));
    if (home) return failure(home);
    throw err;
  }
}

/** The flags, checked and turned into what the branches need. */
function readFlags(v: Parsed["values"], internal: Internal): Flags {
  const str = (k: string): string | undefined => v[k] as string | undefined;
  const format = (str("output-format") ?? "text") as OutputFormat;
  if (!["text", "json", "stream-json"].includes(format)) throw new UsageError(`--output-format must be text, json or stream-json, not '${format}'`);
  const inputFormat = str("input-format") ?? "text";
  if (inputFormat !== "text" && inputFormat !== "stream-json") throw new UsageError(`--input-format must be text or stream-json, not '${inputFormat}'`);
  const print = v.print === true;
  if (inputFormat === "stream-json" && (!print || format !== "stream-json")) throw new UsageError("--input-format stream-json needs -p and --output-format stream-json");
  const rawTurns = str("max-turns");
  const maxTurns = rawTurns === undefined ? undefined : Number(rawTurns);
  if (maxTurns !== undefined && (!Number.isInteger(maxTurns) || maxTurns < 1)) throw new UsageError(`--max-turns needs a whole number ≥ 1, not '${rawTurns}'`);
  const resume = str("resume");
  if (v["fork-session"] === true && v.continue !== true && resume === undefined) throw new UsageError("--fork-session goes with -c or -r ID: it continues a copy of that session");
  if (print && resume === "") throw new UsageError("-r needs a session id with -p (nobody can pick one here): pass deepcode -p -r <id>, or -c for the latest session (deepcode sessions lists them)");
  const settings = str("settings");
  if (settings !== undefined && !existsSync(resolve(settings))) throw new UsageError(`--settings ${settings}: no such file`);
  const mode = permissionMode(str("permission-mode"));
  const flagRules: NonNullable<AssembleOptions["flagRules"]> = [];
  const allowed = splitRules((v.allowedTools as string[] | undefined) ?? []);
  const disallowed = splitRules((v.disallowedTools as string[] | undefined) ?? []);
  if (allowed.length) flagRules.push({ source: "--allowedTools", allow: allowed });
  if (disallowed.length) flagRules.push({ source: "--disallowedTools", deny: disallowed });
  // Claude Code's acceptEdits: edits inside the workspace go through without a prompt. The
  // rules are anchored at the project root, so the fence and protected paths still hold.
  if (mode === "acceptEdits") flagRules.push({ source: "--permission-mode acceptEdits", allow: ["Edit(/**)", "Write(/**)"] });
  const options: AssembleOptions = {
    root: process.cwd(),
    flagSettings: settings,
    flagRules: flagRules.length ? flagRules : undefined,
    model: str("model"),
    maxTurns,
    appendSystemPrompt: str("append-system-prompt"),
    managedPath: internal.managedPath,
    trustProject: v["trust-project"] === true,
    mcpConfig: v["mcp-config"] as string[] | undefined,
    strictMcpConfig: v["strict-mcp-config"] === true,
    // Claude Code's plan mode: every turn plans (read-only tools, the planner tier); -p prints the plan.
    planMode: mode === "plan",
    acceptEdits: mode === "acceptEdits",
  };
  return { print, format, inputFormat, partial: v["include-partial-messages"] === true || v.verbose === true, verbose: v.verbose === true, continue: v.continue === true, resume, fork: v["fork-session"] === true, permissionMode: mode, options };
}

function permissionMode(mode: string | undefined): Flags["permissionMode"] {
  switch (mode ?? "default") {
    case "default":
      return "default";
    case "acceptEdits":
      return "acceptEdits";
    case "bypassPermissions":
    case "dontAsk":
      throw new UsageError(
        `--permission-mode ${mode} is refused: deepcode has no bypass of its permission rules. Allow what the run needs with --allowedTools "Bash(npm test:*),Edit" or permissions.allow in settings (deepcode -p already denies whatever would ask)`,
      );
    case "plan":
      return "plan";
    default:
      throw new UsageError(`--permission-mode must be default, acceptEdits or plan, not '${mode}'`);
  }
}

/** Where a subcommand stands in argv: the first word that is not an option or an option's
 *  value. Only when -p is not given: `deepcode -p stats` asks the model about "stats". */
function subcommandIndex(argv: string[]): number {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "-p" || a === "--print" || a === "--") return -1;
    if (a.startsWith("-")) {
      const name = a.replace(/^-+/, "").split("=")[0];
      const opt = GLOBAL_OPTIONS.find((o) => o.name === name || o.aliases?.includes(name) || o.short === name);
      if (opt && opt.type === "string" && !a.includes("=") && !(opt.name === "resume" && (argv[i + 1] ?? "-").startsWith("-"))) i++;
      // a variadic option's values run up to the next option (options.ts expandVariadic)
      if (opt?.variadic && !a.includes("=")) while (i + 1 < argv.length && !argv[i + 1].startsWith("-")) i++;
      continue;
    }
    return SUBCOMMANDS.some((s) => s.name === a) ? i : -1;
  }
  return -1;
}

function usage(message: string): number {
  process.stderr.write(`deepcode: ${message}\n`);
  return 2;
}

function failure(message: string): number {
  process.stderr.write(`deepcode: ${message}\n`);
  return 1;
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
    if (a === "--") {
      out.push(...argv.slice(i + 1));
      break;
    }
    if ((a === "-r" || a === "--resume") && (i + 1 >= argv.length || argv[i + 1].startsWith("-"))) out.push("");
  }
  return out;
}
