// `deepcode -p`: prompts non-interactively. The answer goes to stdout (text, one JSON result, or
// one JSON object per line — Claude Code's headless shapes, see print-result.ts and
// print-stream.ts); progress and warnings go to stderr. Nobody can answer a permission prompt
// here, so an ask is a deny — the model is told why, and so is the person (with the flag or
// rule that would allow it). With `--input-format stream-json` the prompts are JSON lines on
// stdin, one turn each, in one session.
// Exit: 0 every turn completed, 1 an error (or any other stop), 2 usage, 130 interrupted.

import { managedProblem } from "./subcommands.js";
import type { StreamEvent } from "../contract/index.js";
import { ConfigError, NotImplementedError, ProviderError } from "../contract/index.js";
import { openChosen } from "./session-pick.js";
import { Engine } from "../core/engine/engine.js";
import { assemble, type App } from "./assemble.js";
import { noKeyHelp } from "./credentials.js";
import type { Flags, OutputFormat } from "./main.js";
import { loadCustomCommands } from "./commands/custom.js";
import { commandLine, runCustomCommand } from "./commands/run.js";
import { pluginCommandLine, runPluginCommand, unknownCommand } from "./print-commands.js";
import type { FrontEnd } from "./assemble-options.js";
import { UsageError } from "./options.js";
import { streamJsonInput, type InputLine } from "./print-input.js";
import { failedBeforeStart, resultObject, TurnFacts, type ResultObject } from "./print-result.js";
import { mcpServerList, StreamJsonWriter } from "./print-stream.js";
import { progressLine } from "./render/progress.js";
import { DenialAdvice } from "./denial-advice.js";
import { packageVersion } from "./version.js";
import { unwritableHome } from "./home.js";

export interface PrintOptions {
  format: OutputFormat;
  continue?: boolean;
  resume?: string;
  /** --fork-session */
  fork?: boolean;
  /** stream_event lines in stream-json (`--include-partial-messages`, `--verbose`). */
  partial?: boolean;
  permissionMode?: string;
}

/** `deepcode -p …` from the command line: the prompt(s), the app, then the turns. */
export async function runPrintCommand(flags: Flags, arg: string): Promise<number> {
  const started = Date.now();
  let prompts: AsyncIterable<InputLine>;
  if (flags.inputFormat === "stream-json") {
    if (arg.trim()) throw new UsageError("with --input-format stream-json the prompts come as JSON lines on stdin, not as an argument");
    prompts = streamJsonInput(process.stdin);
  } else {
    const prompt = await printPrompt(arg);
    if (!prompt) throw new UsageError(`-p needs a prompt: deepcode -p "…" (or the prompt on stdin)${tookNote(flags.variadicTook)}`);
    prompts = once({ kind: "prompt", text: prompt });
  }
  const o: PrintOptions = { format: flags.format, continue: flags.continue, resume: flags.resume || undefined, fork: flags.fork, partial: flags.partial, permissionMode: flags.permissionMode };
  const timing = new PrintTiming();
  let app: App;
  try {
    app = await assemble({ ...flags.options, frontEnd: timing.frontEnd });
  } catch (err) {
    if (err instanceof ConfigError || err instanceof ProviderError || err instanceof NotImplementedError) return failed(o.format, err.message, started);
    throw err;
  }
  if (!app.apiKey) return failed(o.format, noKeyHelp(app.home), started);
  // A broken managed policy denies every call: a run that can do nothing fails (CI goes red)
  // instead of answering "success" with nothing done.
  const broken = managedProblem(app);
  if (broken) return failed(o.format, `${broken}. Nothing was run: an administrator must fix the policy (deepcode doctor names the file).`, started);
  return runPrint(app, o, prompts, timing, started);
}

/** What `-p` puts on the chain, handed to assembly (FrontEnd): the time spent waiting for the
 *  API (duration_api_ms) and the model each request went to. */
export class PrintTiming {
  apiMs = 0;
  model?: string;
  readonly frontEnd: FrontEnd = {
    name: "print",
    register: ({ chain }) => {
      chain.on("prepend", "print-timing", "model.request", null, async (e, next) => {
        this.model = e.request.model;
        const t = performance.now();
        try {
          return await next(e);
        } finally {
          this.apiMs += performance.now() - t;
        }
      }, { timeoutMs: Infinity });
    },
  };
}

/** Run the prompts in one session of an app assembled with `timing.frontEnd`. */
export async function runPrint(app: App, o: PrintOptions, prompts: AsyncIterable<InputLine>, timing: PrintTiming, started = Date.now(), out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): Promise<number> {
  const say = (m: string): void => void err.write(`deepcode: ${m}\n`);
  let engine: Engine;
  try {
    engine = await openSession(app, o, say);
  } catch (e) {
    const message = unwritableHome(e, app.home) ?? (e instanceof Error ? e.message : String(e));
    return failed(o.format, message, started, out, err);
  }
  app.engine = engine;
  // Custom commands work here as in the REPL: `-p "/review src/a.ts"` (project, user, plugins).
  const loaded = loadCustomCommands({ root: app.root, home: app.home, plugins: app.pluginStatus("marketplace")?.commands ?? [] });
  loaded.warnings.forEach(say);
  const custom = loaded.commands;
  const stream = o.format === "stream-json" ? new StreamJsonWriter((l) => void out.write(`${l}\n`), { partial: o.partial === true, model: () => timing.model ?? app.model }) : undefined;
  stream?.init(engine.sessionId, {
    cwd: app.root,
    model: engine.profile.model,
    // Every tool the model can call: the prefix's, then the on-demand ones reached through UseTool.
    tools: [...new Set([...engine.prefix.tools.map((t) => t.function.name), ...app.registry.list().map((t) => t.spec.name)])],
    mcpServers: mcpServerList(app),
    permissionMode: o.permissionMode ?? "default",
    apiKeySource: app.apiKey?.source ?? "none",
    slashCommands: custom.map((c) => c.name),
    version: packageVersion(),
  });
  const controller = new AbortController();
  const onSigint = (): void => controller.abort();
  process.on("SIGINT", onSigint);
  let code = 0;
  let turnStarted = started;
  try {
    const advice = new DenialAdvice(); // each rule's advice said in full once per run
    const inputs = new Map<string, unknown>(); // calls under way, for the lines that name them
    for await (const input of prompts) {
      if (input.kind === "bad") {
        stream?.result(failedBeforeStart(input.message, 0, engine.sessionId));
        code = 1;
        continue;
      }
      timing.apiMs = 0;
      const onEvent = (ev: StreamEvent): void => {
        if (stream) stream.handle(ev);
        else {
          const line = progressLine(ev, advice, inputs);
          if (line) err.write(`${line}\n`);
        }
      };
      const named = commandLine(input.text, custom, (n) => app.commands.get(n) !== undefined);
      const contributed = named ? undefined : await pluginCommandLine(input.text, app.commands);
      const unknown = named || contributed ? undefined : unknownCommand(input.text, app.commands);
      if (unknown) {
        say(unknown);
        stream?.result(failedBeforeStart(unknown, Date.now() - turnStarted, engine.sessionId));
        code = 1;
        continue;
      }
      let r;
      if (named) r = await runCustomCommand(app, engine, named.command, named.args, { expand: (fn) => fn(controller.signal), warn: say, turn: (p) => runTurn(engine, p, controller.signal, onEvent) });
      else if (contributed) {
        const ran = await runPluginCommand(contributed.command, contributed.args, { sessionId: engine.sessionId, signal: controller.signal, turn: (p) => runTurn(engine, p, controller.signal, onEvent) });
        if (!ran.turn) {
          if (o.format === "text") out.write(ran.printed ? `${ran.printed}\n` : "");
          else out.write(`${JSON.stringify({ ...failedBeforeStart("", Date.now() - turnStarted, engine.sessionId), subtype: "success", is_error: false, result: ran.printed, stop_reason: "completed", errors: [] })}\n`);
          turnStarted = Date.now();
          continue;
        }
        if (ran.printed) say(ran.printed);
        r = ran.turn;
      } else r = await runTurn(engine, input.text, controller.signal, onEvent);
      if (!r) continue; // not reached: -p expands without asking anyone, so it always resolves
      const result = resultObject({ final: r.final, facts: r.facts, sessionId: engine.sessionId, durationMs: Date.now() - turnStarted, apiMs: Math.round(timing.apiMs) });
      turnStarted = Date.now();
      report(o.format, result, r.final, out, err);
      const stop = r.final.stopReason;
      if (stop === "interrupted") {
        code = 130;
        break;
      }
      if (stop !== "completed") code = 1;
    }
  } finally {
    process.off("SIGINT", onSigint);
    await engine.close(controller.signal.aborted ? "interrupted" : "exit");
    await app.cost?.flush(); // every usage line on disk before the process ends
  }
  return code;
}

async function runTurn(engine: Engine, prompt: string, signal: AbortSignal, onEvent: (ev: StreamEvent) => void): Promise<{ final: Extract<StreamEvent, { type: "turn.complete" }>; facts: TurnFacts }> {
  const facts = new TurnFacts();
  let final: Extract<StreamEvent, { type: "turn.complete" }> | undefined;
  for await (const ev of engine.submit(prompt, { signal })) {
    facts.handle(ev);
    onEvent(ev);
    if (ev.type === "turn.complete") final = ev;
  }
  if (!final) throw new Error("the turn ended without turn.complete (a bug)");
  return { final, facts };
}

function report(format: OutputFormat, result: ResultObject, final: Extract<StreamEvent, { type: "turn.complete" }>, out: NodeJS.WritableStream, err: NodeJS.WritableStream): void {
  if (format !== "text") out.write(`${JSON.stringify(result)}\n`);
  else {
    if (result.result) out.write(result.result.endsWith("\n") ? result.result : `${result.result}\n`);
    if (result.is_error) {
      err.write(`deepcode: ${final.stopReason}${final.error ? `: ${final.error}` : ""}\n`);
      if (final.stopReason !== "budget_exhausted") err.write(`deepcode: session ${result.session_id} keeps what happened; deepcode -p -c "…" continues it\n`);
    }
  }
}

/** A failure before the first request: one result object in json modes, a line on stderr in text. */
function failed(format: OutputFormat, message: string, started: number, out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): number {
  if (format === "text") err.write(`deepcode: ${message}\n`);
  else out.write(`${JSON.stringify(failedBeforeStart(message, Date.now() - started))}\n`);
  return 1;
}

async function openSession(app: App, o: PrintOptions, say: (m: string) => void): Promise<Engine> {
  const opts = app.engineOptions();
  const engine = await openChosen(app.store, o, say, { resume: (id) => Engine.resume(opts, id), start: () => Engine.start(opts) });
  for (const note of engine.startNotes) say(note);
  return engine;
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

async function* once<T>(v: T): AsyncGenerator<T> {
  yield v;
}

/** Where the prompt may have gone: a variadic option takes every word up to the next option. */
function tookNote(took: Flags["variadicTook"]): string {
  if (!took?.length) return "";
  const t = took[took.length - 1];
  return `; ${t.option} took ${t.words.map((w) => `'${w}'`).join(" ")} as its values (it takes every word up to the next option, as Claude Code's does): put the prompt before it, or after --`;
}
