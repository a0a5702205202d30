// The REPL's session half (loaded in the background by repl.ts while the first prompt is
// already on screen): the assembled app, the engine, and loop 2 — turns until the person
// leaves (Ctrl-D, /exit, or Ctrl-C twice at an empty prompt). Each turn streams through the
// turn renderer; Ctrl-C during a turn interrupts it and the transcript keeps what happened.

import type { EventOf, Result, StreamEvent } from "../../contract/index.js";
import { ZERO_USAGE, addUsage } from "../../contract/index.js";
import { usageTotals } from "../../core/session/store.js";
import type { Engine } from "../../core/engine/engine.js";
import { assemble, type App, type AssembleOptions } from "../assemble.js";
import type { Style } from "../render/style.js";
import { inertLines } from "../../lib/inert.js";
import { CONTROL, control } from "../render/terminal.js";
import { statusLine, TurnRenderer } from "../render/turn.js";
import { fit, money, tokens } from "../render/figures.js";
import { completeLine, withoutUnsafe } from "../complete.js";
import type { CustomCommand } from "../commands/custom.js";
import { runCustomCommand } from "../commands/run.js";
import { BUILTIN_COMMANDS, helpText, type ReplApi, type SessionTotals, type SlashCommand } from "./commands.js";
import { beforeTurn } from "./before-turn.js";
import { besidePluginCommands, CustomCommands } from "./custom-commands.js";
import { replFrontEnd, type ReplSide } from "./front-end.js";
import { pluginCommands, completeWithPlugins } from "./plugin-commands.js";
import { History } from "./history.js";
import { TurnKeys } from "./keys.js";
import { SessionBusyError } from "../../core/session/lock.js";
import { listedSessions, openSession, outcomesOf, replayText, sessionLines, type OpenRequest } from "./open.js";
import { readPrompt, type PromptResult } from "./prompt.js";
import { planStatus, routePrompt } from "./plan-route.js";
import { showRunning, ToolOutputs } from "./outputs.js";
import { customStatusLine } from "./status-command.js";

export interface ReplStart extends OpenRequest {
  initialPrompt?: string;
}

/** Assemble deepcode and open the session the person asked for. */
export async function bootRepl(options: AssembleOptions, start: ReplStart, style: Style): Promise<Repl> {
  const warnings: string[] = [];
  const keys = new TurnKeys();
  let made: Repl | undefined;
  const frontEnd = replFrontEnd({ keys, out: process.stdout, style, side: () => made, early: (m) => warnings.push(m) });
  const app = await assemble({ ...options, interactive: true, warn: (m) => warnings.push(m), frontEnd });
  const repl = (made = new Repl(app, style, warnings, keys));
  await repl.prepare(start);
  return repl;
}

export class Repl implements ReplApi, ReplSide {
  engine!: Engine;
  showThinking = false;
  readonly changedFiles = new Set<string>();
  /** What this session's tool calls returned: `/output [N]`, Ctrl-O. */
  readonly outputs = new ToolOutputs();
  session: SessionTotals = { requests: 0, costUsd: 0, usage: { ...ZERO_USAGE } };
  private readonly history: History;
  private readonly custom: CustomCommands;
  private leaving = false;
  /** While the person types at the prompt: prints a line above it (prompt.ts `above`). */
  private abovePrompt?: (text: string) => void;
  private readonly out = process.stdout;
  private customStatus?: ReturnType<typeof customStatusLine>; // settings statusLine, after each turn (status-command.ts)

  constructor(readonly app: App, readonly style: Style, private readonly warnings: string[], private readonly keys: TurnKeys) {
    this.history = new History(app.home, app.root);
    this.custom = new CustomCommands({ root: app.root, home: app.home, plugins: app.pluginStatus("marketplace")?.commands ?? [] });
  }

  print(text: string): void {
    this.out.write(`${text}\n`);
  }

  /** Everything before the first prompt can be answered: commands, hooks, the session. */
  async prepare(start: ReplStart): Promise<void> {
    this.warnings.push(...this.custom.load());
    this.customStatus = customStatusLine(this.app, (l) => this.print(l), (l) => this.print(this.style("dim", `! ${l}`)));
    await this.open(start);
  }

  /** `ui.render` text (replFrontEnd): above the prompt while the person types, else in place. */
  render(item: { text: string; level?: "info" | "warn" | "error" }): void {
    const line = this.style(item.level === "info" ? "dim" : "yellow", `! ${inertLines(item.text)}`);
    if (this.abovePrompt) return this.abovePrompt(line); // at the prompt: above it, the prompt redrawn
    control(this.out, CONTROL.clearLine);
    this.print(line);
  }

  /** A priced request (replFrontEnd); the same rule as the ledger: a subagent's request is
   *  booked to the main session. */
  countUsage(e: EventOf<"model.usage">, r: Result<"model.usage"> | undefined): void {
    if ((e.agent?.rootSessionId ?? e.sessionId) !== this.engine?.sessionId) return;
    this.session = { requests: this.session.requests + 1, usage: addUsage(this.session.usage, e.usage), costUsd: this.session.costUsd + (r?.costUsd ?? 0) };
  }

  /** The rest of the banner (the first line is printed before anything loads). */
  banner(): string {
    const s = this.style;
    const l = this.engine.ledger();
    const prefix = `${l.lastPromptTokens ? "" : "≈"}${tokens(l.zones.system + l.zones.tools)}`;
    const head = `${this.engine.profile.model} · session ${this.engine.sessionId}`;
    const width = (this.out.columns || 80) - 1;
    const lines = [
      s("dim", fit([
        `${head} · prefix ${prefix} tokens (system prompt and tools), cached after the first request · /help for commands`,
        `${head} · prefix ${prefix} tokens (system prompt and tools) · /help for commands`,
        `${head} · prefix ${prefix} tokens · /help for commands`,
        `${head} · prefix ${prefix} tokens`,
        head,
      ], width)),
    ];
    // The administrator's `companyAnnouncements` (Claude Code's key): one of them, at random, at each start.
    const news = this.app.settings.merged.companyAnnouncements;
    const said = Array.isArray(news) ? news.filter((n): n is string => typeof n === "string" && n.trim() !== "") : [];
    if (said.length > 0) lines.push(s("cyan", inertLines(said[Math.floor(Math.random() * said.length)] as string)));
    for (const n of this.engine.sectionNotes) lines.push(s("yellow", `! ${inertLines(n)}`));
    for (const w of this.warnings.splice(0)) lines.push(s("yellow", `! ${inertLines(w)}`));
    return lines.join("\n");
  }

  /** Warnings plugins gave after the banner (a hookify rule that broke, a hook's message). */
  private sayLateWarnings(): void {
    for (const w of this.warnings.splice(0)) this.print(this.style("yellow", `! ${inertLines(w)}`));
  }

  reloadCommands(): string[] {
    return this.custom.reload();
  }

  /** Loop 2: turns until the person leaves. `first` is a prompt already read while loading. */
  async run(start: ReplStart, first?: PromptResult): Promise<number> {
    if (start.resume !== undefined || start.continue) this.showEarlierTurns();
    if (start.initialPrompt) await this.prompt(start.initialPrompt);
    let pending = first;
    let typed = ""; // what was on the line when a wake ended the prompt
    while (!this.leaving) {
      const r = pending ?? await readPrompt({
        prompt: this.style("bold", "› "),
        continuation: this.style("dim", "… "),
        history: this.history.forReadline(),
        completer: (line: string, cb: (err: null | Error, r: [string[], string]) => void) => void this.completeAsync(line).then((r) => cb(null, r), () => cb(null, this.complete(line))),
        exitHint: this.style("dim", "(press Ctrl-C again to exit, or Ctrl-D)"),
        prefill: typed + this.keys.takeTypeahead(),
        quietEnterMs: this.keys.quietLeft,
        // PluginApi.wake (a hook's asyncRewake): only this session, only while it waits here.
        wakeable: (wake) => this.app.setWaker((id, text) => id === this.engine.sessionId && wake(text)),
        expand: () => this.outputs.show(this.style),
        above: (print) => {
          this.abovePrompt = print;
          return () => void (this.abovePrompt === print && (this.abovePrompt = undefined));
        },
      });
      this.app.setWaker(undefined);
      pending = undefined;
      typed = "";
      if (r.kind === "wake") {
        typed = r.typed;
        const said = r.text.split("\n")[0];
        this.print(this.style("dim", `(woken by a background hook) ${said.length > 200 ? `${said.slice(0, 199)}…` : said}`));
        await this.runTurn(r.text);
        this.sayLateWarnings();
        continue;
      }
      if (r.kind !== "line") break;
      const text = r.text.trim();
      if (!text) continue;
      this.history.add(r.text);
      // `# text` on one line is a memory (Claude Code's convention): /memory add it. A prompt
      // that should start with # starts with a space instead.
      if (/^#[^\n]*\S/.test(r.text) && !r.text.includes("\n")) await this.command(`/memory add ${r.text.slice(1).trim()}`);
      else if (text.startsWith("/")) await this.command(text);
      else await this.prompt(r.text);
      this.sayLateWarnings();
    }
    await this.engine.close("exit");
    await this.app.cost?.flush(); // every usage line on disk before the process ends
    if (this.engine.turns === 0 && !this.engine.wasResumed) {
      // Nothing happened: keep no empty session for `-c` to pick up.
      this.app.store.delete(this.engine.sessionId);
      this.print("\nNo turns, nothing saved.");
      return 0;
    }
    this.print(`\nSession ${this.engine.sessionId} saved (${money(this.session.costUsd)}). Resume with: deepcode -r ${this.engine.sessionId}   (or deepcode -c)`);
    return 0;
  }

  exit(): void {
    this.leaving = true;
  }

  /** A typed prompt: planned first when plan mode is on or autoPlan says so (plan-route.ts). */
  private async prompt(text: string): Promise<void> {
    const s = this.style;
    const route = await routePrompt({
      app: this.app,
      print: (t) => this.print(s("dim", t)),
      ask: async (q) => {
        const yes = await this.withKeys(async () => {
          const k = await this.keys.ask({ show: () => this.out.write(`${q} ${s("bold", "[y]")} plan first  ${s("bold", "[n]")} just do it  › `) });
          return k.kind === "key" && k.key.toLowerCase() === "y";
        });
        this.out.write(yes === undefined ? "cancelled\n" : yes ? "plan first\n" : "no\n");
        return yes;
      },
    }, text);
    if (route === "plan") return this.command(`/plan -- ${text}`); // all of it the task, never a verb
    if (route === "turn") return this.runTurn(text);
  }

  /** Run one turn, with the person able to interrupt it. */
  async runTurn(prompt: string): Promise<void> {
    const ctl = new AbortController();
    const numbers = new Map<string, number>(); // each finished call's number, for its line's hint
    // Not under a refusal, nor a call that shows its own lines (TodoWrite's checklist).
    const hint = (id: string, o: { content: string; display?: string; meta?: { outcome?: unknown } }) => (numbers.has(id) && o.content.trim() && !o.display && !o.meta?.outcome ? `· /output ${numbers.get(id)}` : undefined);
    const renderer = new TurnRenderer({ out: this.out, style: this.style, showThinking: this.showThinking, live: true, paused: () => this.keys.asking, hint });
    // Ctrl-O during the turn, between what streams (not over a question): the running call's
    // output so far, else the last finished call's full output.
    this.keys.onExpand = () => {
      if (this.keys.asking) return;
      const r = renderer.runningCall();
      renderer.say(r ? showRunning(this.style, r.label, r.output, r.ms) : this.outputs.show(this.style));
    };
    let interrupts = 0;
    this.keys.start(() => {
      interrupts++;
      if (interrupts === 1) ctl.abort();
    });
    let complete: Extract<StreamEvent, { type: "turn.complete" }> | undefined;
    try {
      const plan = planStatus(this.app);
      const planned = plan?.planning ? plan : undefined;
      if (this.app.cost && !(await beforeTurn({ cost: this.app.cost, planned, engine: this.engine, keys: this.keys, out: this.out, style: this.style, print: (t) => this.print(t) }, prompt))) return;
      for await (const ev of this.engine.submit(prompt, { signal: ctl.signal })) {
        if (ev.type === "tool.end") numbers.set(ev.callId, this.outputs.record(ev));
        renderer.handle(ev);
        if (ev.type === "tool.end" && !ev.output.isError && (ev.tool === "Write" || ev.tool === "Edit")) {
          const path = ev.output.meta?.path;
          if (typeof path === "string") this.changedFiles.add(path);
        }
        if (ev.type === "turn.complete") complete = ev;
      }
    } finally {
      renderer.close();
      this.keys.onExpand = undefined;
      this.keys.stop();
    }
    if (!complete) return;
    if (complete.usage.prompt_tokens > 0) this.print(statusLine({ costUsd: complete.costUsd, usage: complete.usage }, this.session, this.style, (this.out.columns || 80) - 1));
    await this.customStatus?.(this.engine.sessionId, this.engine.profile.model, this.session.costUsd);
    if (complete.stopReason === "interrupted") this.print(this.style("dim", "Interrupted. The transcript keeps what happened; say how to go on."));
    else if (complete.stopReason === "error") this.print(this.style("dim", `The session keeps what arrived before the error; send a prompt to go on (or later: deepcode -r ${this.engine.sessionId}).`));
    for (const n of this.app.cost?.takeNotices() ?? []) this.print(this.style("yellow", `! ${n.message}`));
  }

  /** Run `fn` with the terminal's keys read as during a turn: answers to permission prompts
   *  reach them, and Ctrl-C aborts the signal (the result is then undefined). */
  private async withKeys<T>(fn: (signal: AbortSignal) => Promise<T>): Promise<T | undefined> {
    const ctl = new AbortController();
    this.keys.start(() => ctl.abort());
    try {
      const v = await fn(ctl.signal);
      return ctl.signal.aborted ? undefined : v;
    } finally {
      this.keys.stop();
    }
  }

  async newSession(): Promise<void> {
    await this.engine.close("new");
    await this.open({});
    this.changedFiles.clear();
    this.print(`new session ${this.engine.sessionId}`);
  }

  async resume(which?: string): Promise<void> {
    const list = listedSessions(this.app.store.list());
    let id = which;
    if (which && /^\d+$/.test(which) && Number(which) <= list.length) id = list[Number(which) - 1].id;
    if (!id) {
      id = await this.pick(list);
      if (!id) return;
    }
    if (id === this.engine.sessionId) return this.print("that is the current session");
    const holder = this.app.store.holder(id);
    if (holder) return this.print(this.style("yellow", new SessionBusyError(id, holder, this.app.store.lockFileOf(id)).message));
    await this.engine.close("switch");
    await this.open({ resume: id });
    this.print(`resumed session ${id}`);
    this.showEarlierTurns();
  }

  /** A yes/no question answered with one key, like every other question (y yes; anything
   *  else, Enter included, no). */
  async confirm(question: string): Promise<boolean> {
    const s = this.style;
    const yes = await this.withKeys(async () => {
      const k = await this.keys.ask({ show: () => this.out.write(`${question} ${s("bold", "[y]")} yes  ${s("bold", "[n]")} no  › `) });
      return k.kind === "key" && k.key.toLowerCase() === "y";
    });
    this.out.write(yes ? `${s("green", "yes")}\n` : `${s("red", yes === undefined ? "cancelled" : "no")}\n`);
    return yes === true;
  }

  /** Open a session; its totals start from what its file records (a resumed session's cost). */
  private async open(req: OpenRequest): Promise<void> {
    this.engine = await openSession(this.app, req, (list) => this.pick(list), (m) => this.print(this.style("yellow", m)));
    this.app.engine = this.engine;
    this.outputs.clear();
    this.session = this.engine.wasResumed ? usageTotals(this.app.store.load(this.engine.sessionId).records) : { requests: 0, costUsd: 0, usage: { ...ZERO_USAGE } };
  }

  private async pick(list: Parameters<typeof sessionLines>[0]): Promise<string | undefined> {
    if (list.length === 0) {
      this.print("No sessions in this project yet.");
      return undefined;
    }
    this.print(sessionLines(list.slice(0, 20), this.style).join("\n"));
    const r = await readPrompt({ prompt: "session number (Enter for none): ", continuation: "", history: [], exitHint: "" });
    const n = r.kind === "line" ? Number(r.text.trim()) : NaN;
    return Number.isInteger(n) && n >= 1 && n <= list.length ? list[n - 1].id : undefined;
  }

  private showEarlierTurns(): void {
    const text = replayText(this.engine.messages, this.style, outcomesOf(this.app.store.load(this.engine.sessionId).records), this.out.columns || Infinity);
    if (text) this.print(`${this.style("dim", "── earlier in this session ──")}\n${text}\n${this.style("dim", "──")}`);
  }

  private commands(): SlashCommand[] {
    // A project's command never takes a name a mod or plugin command has (an MCP server's
    // prompt, a skill of yours, /agents): it is offered as /project:<name> instead.
    const custom = besidePluginCommands(this.custom.commands, this.app.commands.list().map((c) => c.spec.name)).map((c) => this.slashCommand(c));
    const taken = new Set([...BUILTIN_COMMANDS, ...custom].map((c) => c.name));
    const plugins = pluginCommands(this.app.commands.list(), taken, {
      keys: this.keys,
      sessionId: () => this.engine.sessionId,
      print: (t) => this.print(t),
      runTurn: (p) => this.runTurn(p),
      style: this.style,
    });
    const help: SlashCommand = { name: "help", description: "list commands", run: () => this.print(helpText(this, [...custom, ...plugins])) };
    return [help, ...BUILTIN_COMMANDS.filter((c) => c.name !== "help"), ...custom, ...plugins];
  }

  private slashCommand(c: CustomCommand): SlashCommand {
    const where = c.scope === "plugin" ? `plugin ${c.plugin ?? ""}`.trim() : c.scope;
    return {
      name: c.name,
      ...(c.alias ? { alias: c.alias } : {}),
      args: c.argumentHint,
      description: `${c.description} ${this.style("dim", `(${where})`)}`,
      run: async (r: ReplApi, args: string) => {
        await runCustomCommand(this.app, this.engine, c, args, {
          // A !`cmd` line may need a person's y/a/n: read keys (and Ctrl-C) as in a turn.
          expand: (fn) => this.withKeys(fn),
          warn: (m) => this.print(this.style("yellow", `! ${m}`)),
          turn: (prompt) => r.runTurn(prompt),
        });
      },
    };
  }

  private async command(text: string): Promise<void> {
    const m = /^\/(\S+)\s*([\s\S]*)$/.exec(text);
    const name = m?.[1] ?? "";
    const find = (): SlashCommand | undefined => this.commands().find((c) => c.name === name) ?? this.commands().find((c) => c.alias === name);
    let cmd = find();
    if (!cmd) {
      // A command file added since start (or since the last look) works at once.
      const changes = this.custom.reload();
      cmd = find();
      for (const w of changes.filter((c) => c.startsWith("! "))) this.print(this.style("yellow", w));
    }
    if (!cmd) return this.print(this.style("yellow", `unknown command /${name} — /help lists them`));
    try {
      await cmd.run(this, m?.[2] ?? "");
    } catch (err) {
      this.print(this.style("red", `/${name} failed: ${err instanceof Error ? err.message : String(err)}`));
    }
  }

  complete(line: string): [string[], string] {
    const cmds = this.commands();
    const argCompleters: Record<string, (partial: string) => readonly string[]> = {};
    for (const c of cmds) if (c.complete) argCompleters[`/${c.name}`] = (p) => c.complete!(p, this);
    return withoutUnsafe(completeLine(line, { commands: cmds.map((c) => `/${c.name}`), root: this.app.root, argCompleters }));
  }

  /** Tab completion with what plugins offer too (their commands' arguments, `@` mentions). */
  completeAsync(line: string): Promise<[string[], string]> {
    return completeWithPlugins(line, this.complete(line), this.app.commands, this.app.mentionCompleters).then(withoutUnsafe);
  }
}
