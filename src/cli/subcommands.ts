// `deepcode <command>`: the things a person runs from the shell rather than inside a session.
import { listedSessions } from "./repl/open.js";
import { NotImplementedError, type ResumedSession } from "../contract/index.js";
import { calibration, formatCalibration, formatStats, parseCurrency, readLedger, statsJson, summarise } from "../core/cost/index.js";
import { describeRules } from "./settings/describe.js";
import { assemble, deepcodeHome, type AssembleOptions } from "./assemble.js";
import { SessionStore } from "../core/session/store.js";
import { parseOptions, subcommand, subcommandHelp, UsageError, type Parsed } from "./options.js";
import { money, plural } from "./render/figures.js";
import { agentLines } from "./session-tree.js";
import { inert } from "../lib/inert.js";
import { sessionCommandLines } from "./session-commands.js";
import { grantLines, sandboxLine } from "./sandbox-line.js";

/** Run `deepcode <command> [args]`. Its options come from its row in options.ts; `--help`
 *  prints them; an unknown option or an argument it does not take is a UsageError (exit 2). */
export async function runSubcommand(command: string, args: string[], options: AssembleOptions): Promise<number> {
  const spec = subcommand(command);
  if (!spec) throw new NotImplementedError(`deepcode ${command}`);
  if (spec.ownArgs) return runOwn(command, args, options);
  const parsed = parseOptions(args, spec.options, { positionals: true, where: `deepcode ${command}` });
  if (parsed.values.help) {
    process.stdout.write(subcommandHelp(spec));
    return 0;
  }
  const extra = parsed.positionals.slice(spec.maxArgs ?? 0);
  if (extra.length) throw new UsageError(`deepcode ${command} takes no argument '${extra[0]}' (deepcode ${command} --help lists what it takes)`);
  return run(command, parsed, options);
}

/** A subcommand that reads its own arguments (`deepcode mcp add NAME -- cmd args…`). */
async function runOwn(command: string, args: string[], options: AssembleOptions): Promise<number> {
  if (subcommand(command)?.mod) return runPluginSubcommand(command, args, options);
  if (command === "policy") {
    const { runPolicy } = await import("./policy-check.js");
    return runPolicy(args);
  }
  if (command === "run") {
    if (args.length === 0 || args[0] === "--help" || args[0] === "-h") return listPluginSubcommands(options);
    return runPluginSubcommand(args[0], args.slice(1), options);
  }
  throw new NotImplementedError(`deepcode ${command}`);
}

async function run(command: string, parsed: Parsed, options: AssembleOptions): Promise<number> {
  switch (command) {
    case "permissions":
      return permissions(options);
    case "sessions":
      return sessions(options);
    case "stats":
      return stats(parsed.values, options);
    case "setup": {
      const { runSetup } = await import("./setup.js");
      return runSetup(deepcodeHome(options.env ?? process.env), { force: parsed.values.force === true });
    }
    case "trust": {
      const { runTrust } = await import("./trust/command.js");
      return runTrust({ show: parsed.values.show === true, revoke: parsed.values.revoke === true }, options);
    }
    case "doctor": {
      const { runDoctor } = await import("./doctor.js");
      return runDoctor(options);
    }
    default:
      throw new NotImplementedError(`deepcode ${command}`);
  }
}

/** `deepcode <name>` of a plugin (api.subcommand): assemble (every plugin loads), then run it.
 *  Its output is its own; a UsageError it throws exits 2 (main prints it). */
async function runPluginSubcommand(name: string, args: string[], options: AssembleOptions): Promise<number> {
  const app = await assemble(options);
  app.commandLines = sessionCommandLines(app);
  const entry = app.subcommands.get(name);
  // What plugins add, without the built-in mods' own (`deepcode rewind`, `deepcode telemetry`).
  const added = [...app.subcommands.keys()].filter((n) => !subcommand(n)?.mod);
  if (!entry) throw new UsageError(`no plugin adds 'deepcode ${name}'${added.length ? ` (plugins add: ${added.join(", ")})` : ""}`);
  // A built-in mod's row (options.ts `mod: true`) answers its own --help, with its options.
  if ((args[0] === "--help" || args[0] === "-h") && !subcommand(name)?.mod) {
    process.stdout.write(`deepcode ${name}${entry.spec.usage ? ` ${entry.spec.usage}` : ""}\n  ${entry.spec.description}\n  (from ${entry.source})\n`);
    return 0;
  }
  const abort = new AbortController();
  const stop = (): void => abort.abort(new Error("interrupted"));
  process.once("SIGINT", stop);
  const open = new Set<ResumedSession>();
  try {
    return await (async () => entry.spec.run(args, {
      out: (t) => void process.stdout.write(t),
      err: (t) => void process.stderr.write(t),
      signal: abort.signal,
      confirm: async (question) => {
        if (!process.stdin.isTTY) return false;
        const { createInterface } = await import("node:readline/promises");
        const rl = createInterface({ input: process.stdin, output: process.stderr });
        try {
          return /^y(es)?$/i.test((await rl.question(`${inert(question)} [y/N] `)).trim());
        } finally {
          rl.close();
        }
      },
      resumeSession: async (id) => {
        const { Engine } = await import("../core/engine/engine.js");
        const engine = await Engine.resume(app.engineOptions(), id);
        app.engine = engine;
        const session: ResumedSession = {
          sessionId: engine.sessionId,
          close: async () => {
            if (!open.delete(session)) return;
            if (app.engine === engine) app.engine = undefined;
            await engine.close("exit");
          },
        };
        open.add(session);
        return session;
      },
    }))().catch((err: unknown) => {
      // A plugin's own UsageError (by name: it may not share our class) exits 2 like ours.
      if (err instanceof Error && err.name === "UsageError" && !(err instanceof UsageError)) throw new UsageError(err.message);
      throw err;
    });
  } finally {
    process.off("SIGINT", stop);
    for (const session of [...open]) await session.close();
  }
}

async function listPluginSubcommands(options: AssembleOptions): Promise<number> {
  const app = await assemble(options);
  const rows = [...app.subcommands.values()].filter((e) => !subcommand(e.spec.name)?.mod);
  if (rows.length === 0) process.stdout.write("No plugin adds a subcommand.\n");
  for (const e of rows) process.stdout.write(`deepcode run ${e.spec.name}${e.spec.usage ? ` ${e.spec.usage}` : ""}  ${e.spec.description}  (${e.source})\n`);
  return 0;
}

export function formatRules(rows: ReturnType<typeof describeRules>): string {
  if (rows.length === 0) return "No permission rules. Defaults: read-only tools allow; Write, Edit and Bash ask; unknown tools deny.";
  const width = Math.max(...rows.map((r) => r.text.length));
  return rows
    .map((r) => {
      const where = r.file ? `${r.file}${r.line ? `:${r.line}` : ""}` : r.layer === "session" ? "this session (a)" : "";
      return `${r.kind.padEnd(5)}  ${r.text.padEnd(width)}  ${r.layer.padEnd(7)}  ${where}${r.ignored ? `  (ignored: ${r.ignored})` : ""}`;
    })
    .join("\n");
}

async function permissions(options: AssembleOptions): Promise<number> {
  const app = await assemble(options);
  process.stdout.write(`${formatRules(describeRules(app.settings))}\n`);
  process.stdout.write(`\nBash sandbox: ${sandboxLine(app.pluginStatus("sandbox"))}\n${grantLines(app.pluginStatus("sandbox")).map((l) => `  ${l}\n`).join("")}`);
  const broken = managedProblem(app);
  if (broken) process.stdout.write(`\n${broken}\n`);
  return 0;
}

/** Why the managed policy denies every call, if it does (a malformed file, or a deny/ask rule
 *  that cannot be parsed). */
export function managedProblem(app: { settings: { managed: { problem?: string } }; permissions: { managedBroken: boolean; warnings: string[] } }): string | undefined {
  if (!app.permissions.managedBroken) return undefined;
  const why = app.settings.managed.problem ?? app.permissions.warnings.filter((w) => w.startsWith("MANAGED POLICY IS BROKEN")).join("; ");
  return `The managed policy is broken, so every tool call is denied: ${why}`;
}

function sessions(options: AssembleOptions): number {
  const store = new SessionStore(options.home ?? deepcodeHome(options.env ?? process.env), options.root);
  const list = listedSessions(store.list());
  if (list.length === 0) {
    process.stdout.write("No sessions in this project yet.\n");
    return 0;
  }
  for (const s of list) {
    const when = new Date(s.modified).toISOString().slice(0, 16).replace("T", " ");
    const holder = store.holder(s.id);
    const busy = holder ? `  (in use: pid ${holder.pid} on ${holder.host})` : "";
    process.stdout.write(`${s.id}  ${when}  ${plural(s.turns, "turn").padStart(9)}  ${money(s.costUsd).padStart(9)}  ${oneLine(s.firstPrompt, 60)}${busy}\n`);
    for (const l of agentLines(store, s)) process.stdout.write(`${l}\n`);
  }
  process.stdout.write(`\nResume one with: deepcode -r <id>   (or -c for the latest)\n`);
  return 0;
}

async function stats(values: Parsed["values"], options: AssembleOptions): Promise<number> {
  if (values.by !== undefined && values.by !== "day" && values.by !== "month") throw new UsageError(`deepcode stats --by must be day or month, not '${String(values.by)}'`);
  const home = options.home ?? deepcodeHome(options.env ?? process.env);
  // The telemetry mod's `deepcode telemetry` reads its file.
  if (values.telemetry) return runPluginSubcommand("telemetry", values.json ? ["--json"] : [], options);
  const ledger = await readLedger(home);
  for (const s of ledger.skipped) process.stderr.write(`deepcode: skipped ${s.torn ? "a torn" : "an invalid"} line ${s.line} of the usage ledger (${s.reason})\n`);
  if (values.currency !== undefined && !/^(usd|cny)$/i.test(String(values.currency))) throw new UsageError(`deepcode stats --currency must be USD or CNY, not '${String(values.currency)}'`);
  const currency = parseCurrency(values.currency);
  const cal = calibration(ledger.records);
  if (values.json) {
    const byDay = summarise(ledger.records, { by: "day" });
    const byMonth = summarise(ledger.records, { by: "month" });
    process.stdout.write(`${JSON.stringify({ days: statsJson(byDay), months: statsJson(byMonth, cal) }, null, 2)}\n`);
    return 0;
  }
  if (values.estimates) {
    process.stdout.write(`${formatCalibration(cal)}\n`);
    return 0;
  }
  const by = values.by === "month" ? ["month"] : values.by === "day" ? ["day"] : ["day", "month"];
  for (const b of by) process.stdout.write(`${formatStats(summarise(ledger.records, { by: b as "day" | "month" }), currency)}\n\n`);
  return 0;
}

function oneLine(s: string, n: number): string {
  const l = s.replace(/\s+/g, " ").trim();
  return l.length > n ? `${l.slice(0, n - 1)}…` : l;
}
