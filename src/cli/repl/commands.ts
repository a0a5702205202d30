// The REPL's slash commands. Each is a name, one line of help and a function over the REPL.
// `/status` and `/context` only read; nothing here calls the model except `/compact`.

import { spawnSync } from "node:child_process";
import { homedir } from "node:os";
import type { Usage } from "../../contract/index.js";
import type { Engine } from "../../core/engine/engine.js";
import type { App } from "../assemble.js";
import { describeRules, settingsStatus } from "../settings/describe.js";
import { formatRules, managedProblem } from "../subcommands.js";
import type { Style } from "../render/style.js";
import { money, plural, tokens } from "../render/figures.js";
import { KNOWN_MODELS } from "../../providers/index.js";
import { listedSessions, sessionLines } from "./open.js";
import { agentLines } from "../session-tree.js";
import { grantLines, sandboxLine } from "../sandbox-line.js";
import { describeItems, rememberTrust, trustLine } from "../trust/index.js";
import type { ToolOutputs } from "./outputs.js";
import { inert } from "../../lib/inert.js";

export interface ReplApi {
  app: App;
  engine: Engine;
  style: Style;
  print(text: string): void;
  /** Ask a yes/no question at the prompt. */
  confirm(question: string): Promise<boolean>;
  runTurn(prompt: string): Promise<void>;
  newSession(): Promise<void>;
  resume(id?: string): Promise<void>;
  showThinking: boolean;
  /** Files this session's Write/Edit calls changed (project-relative or absolute). */
  changedFiles: ReadonlySet<string>;
  /** What this session's tool calls returned (`/output`). */
  outputs: ToolOutputs;
  /** The session's requests, from its file and this process: what /status and /cost count. */
  session: SessionTotals;
  /** Read the custom command files again; returns what changed, in words. */
  reloadCommands(): string[];
  exit(): void;
}

export interface SessionTotals {
  requests: number;
  usage: Usage;
  costUsd: number;
}

export interface SlashCommand {
  name: string;
  /** Another name it runs by (a sub-folder custom command's Claude Code name, CustomCommand.alias). */
  alias?: string;
  args?: string;
  description: string;
  run(r: ReplApi, args: string): Promise<void> | void;
  complete?(partial: string, r: ReplApi): string[];
}

/** `/trust yes|no` answered in this process, per app: what /trust and /status say from then on
 *  (the session keeps running as it started; the answer takes effect at the next start). */
const trustAnswers = new WeakMap<object, boolean>();

function trustNow(r: ReplApi): string {
  const t = r.app.trust;
  const answer = trustAnswers.get(r.app);
  if (answer === undefined) return trustLine(t);
  const said = `${answer ? "trusted" : "untrusted"} (you answered /trust ${answer ? "yes" : "no"} in this session)`;
  return answer === t.trusted ? said : `${said}; this session still runs it as ${t.trusted ? "trusted" : "untrusted"} until deepcode next starts`;
}

const sub = (n: number, d: number) => (d ? `${Math.round((n / d) * 100)}%` : "–");

export const BUILTIN_COMMANDS: SlashCommand[] = [
  { name: "help", description: "list commands", run: (r) => r.print(helpText(r)) },
  {
    name: "status",
    description: "model, session, context and cost (never calls the model)",
    run: (r) => {
      const l = r.engine.ledger();
      const p = r.engine.profile;
      const t = r.session;
      r.print(
        [
          `model      ${p.model}${p.tier ? ` (tier ${p.tier})` : ""}${p.thinking ? `, thinking ${p.thinking}` : ""}`,
          ...(r.app.cost ? [`${r.app.cost.tierReport(r.engine).split("\n")[0].replace(/^tier: /, "tier       ")}`] : []),
          `project    ${r.app.root}`,
          `trust      ${trustNow(r)}`,
          `sandbox    ${sandboxLine(r.app.pluginStatus("sandbox"))}`,
          ...grantLines(r.app.pluginStatus("sandbox")).map((l) => `  ${l}`),
          ...settingsStatus(r.app.settings, homedir(), r.app.root),
          `session    ${r.engine.sessionId} · ${plural(r.engine.turns, "turn")}`,
          `context    ${tokens(l.nextPromptTokens)} of ${tokens(l.window)} (${sub(l.nextPromptTokens, l.window)}) in the next request`,
          `cache      ${sub(t.usage.prompt_cache_hit_tokens, t.usage.prompt_tokens)} of this session's prompt tokens served from the cache (${plural(t.requests, "request")})`,
          `cost       ${money(t.costUsd)} this session (${plural(t.requests, "request")})`,
          `prefix     ${l.fingerprint.slice(0, 12)}`,
        ].join("\n"),
      );
    },
  },
  {
    name: "trust",
    args: "[yes|no]",
    description: "whether this project is trusted, and what trusting it lets take effect",
    complete: (p) => ["yes", "no"].filter((x) => x.startsWith(p)),
    run: (r, args) => {
      const t = r.app.trust;
      const a = args.trim().toLowerCase();
      if (a === "yes" || a === "no") {
        rememberTrust(r.app.home, t, a === "yes");
        trustAnswers.set(r.app, a === "yes");
        const now = a === "yes" ? "trusted" : "kept untrusted";
        const changes = (a === "yes") !== t.trusted;
        return r.print(`${t.root} ${now}${changes ? " — this takes effect when deepcode next starts (its hooks, plugins and rules load at start)" : ""}`);
      }
      if (a) return r.print(r.style("yellow", "/trust takes yes, no, or nothing (show)"));
      const items = describeItems(t, r.app.root);
      r.print([`${t.root}: ${trustNow(r)}`, ...items.map((l) => `  ${l}`), r.style("dim", "/trust yes trusts it as it is now; /trust no keeps it untrusted")].join("\n"));
    },
  },
  {
    name: "context",
    description: "what the next request holds, zone by zone",
    run: (r) => {
      const l = r.engine.ledger();
      const rows: Array<[string, number]> = [
        ["system prompt", l.zones.system],
        ["tool definitions", l.zones.tools],
        ["log (sent before)", l.zones.log],
        ["tail (new)", l.zones.tail],
      ];
      const lines = rows.map(([k, v]) => `${k.padEnd(18)} ${tokens(v).padStart(7)}`);
      lines.push(`${"next request".padEnd(18)} ${tokens(l.nextPromptTokens).padStart(7)} of ${tokens(l.window)} (${sub(l.nextPromptTokens, l.window)})`);
      if (l.lastPromptTokens) lines.push(r.style("dim", `the last request was ${l.lastPromptTokens.toLocaleString("en-US")} tokens exactly (from usage); only the tail is estimated`));
      const last = l.requests[l.requests.length - 1];
      if (last?.divergence) lines.push(r.style("yellow", `last request stopped extending the one before at ${last.divergence.zone}: ${last.divergence.reason}`));
      for (const n of r.engine.sectionNotes) lines.push(r.style("yellow", `! ${n}`));
      r.print(lines.join("\n"));
    },
  },
  {
    name: "model",
    args: "[name] [--force]",
    description: "show or switch the model (a name the capability table does not know needs --force)",
    run: (r, args) => {
      const words = args.trim().split(/\s+/).filter(Boolean);
      const force = words.includes("--force");
      const name = words.filter((w) => w !== "--force")[0];
      if (!name) return r.print(`model: ${r.engine.profile.model}\nknown: ${KNOWN_MODELS.join(", ")}`);
      if (!KNOWN_MODELS.includes(name) && !force) {
        return r.print(r.style("yellow", `unknown model '${name}': known are ${KNOWN_MODELS.join(", ")}. The API would answer "Model Not Exist"; /model ${name} --force uses it anyway (another vendor's endpoint).`));
      }
      r.engine.setModel(name);
      r.app.cost?.setTier("default"); // a chosen model: tiers follow it again
      r.print(`model: ${name} ${r.style("dim", "(the server caches per model: the next request re-reads the whole context once)")}`);
    },
    complete: (partial) => KNOWN_MODELS.filter((m) => m.startsWith(partial)),
  },
  {
    name: "compact",
    args: "[instructions]",
    description: "compact the context now: one digest + the recent turns",
    run: async (r, args) => {
      const c = await r.engine.compact(args.trim() || undefined);
      r.print(c.ok ? `compacted: ${tokens(c.tokensBefore)} → ${tokens(c.tokensAfter)} tokens in the next request` : r.style("yellow", `not compacted: ${c.error}`));
    },
  },
  {
    name: "cost",
    description: "cost and cache savings: this session, today, this month",
    run: (r) => r.print(r.app.cost ? r.app.cost.costReport(r.engine) : `${money(r.session.costUsd)} this session (${plural(r.session.requests, "request")})`),
  },
  {
    name: "tier",
    args: "[auto|NAME|default]",
    description: "show or pin the tier (chat-fast, chat-full, reasoner-budget, reasoner), or auto: deepcode picks each turn",
    run: (r, args) => {
      const cost = r.app.cost;
      if (!cost) return r.print("tiers are not available");
      const a = args.trim();
      if (!a) return r.print(cost.tierReport(r.engine));
      const res = cost.setTier(a);
      r.print(res.ok ? res.message : r.style("red", res.message));
    },
    complete: (p) => ["auto", "default", "chat-fast", "chat-full", "reasoner-budget", "reasoner"].filter((x) => x.startsWith(p)),
  },
  {
    name: "diff",
    description: "git diff of the files this session changed",
    run: (r) => {
      const files = [...r.changedFiles];
      if (files.length === 0) return r.print("This session has not changed any file.");
      const inRepo = spawnSync("git", ["rev-parse", "--is-inside-work-tree"], { cwd: r.app.root, encoding: "utf8" }).stdout.trim() === "true";
      if (!inRepo) return r.print(`Changed by this session (not a git repository, no diff):\n${files.join("\n")}`);
      const d = spawnSync("git", ["diff", "--no-color", "--", ...files], { cwd: r.app.root, encoding: "utf8" });
      const untracked = spawnSync("git", ["ls-files", "--others", "--exclude-standard", "--", ...files], { cwd: r.app.root, encoding: "utf8" }).stdout.trim();
      r.print([d.stdout.trim() || "(no changes against the index)", untracked ? `new files:\n${untracked}` : ""].filter(Boolean).join("\n"));
    },
  },
  {
    name: "permissions",
    args: "[forget]",
    description: "every permission rule and its layer; `forget` clears this session's `a` answers",
    run: (r, args) => {
      if (args.trim() === "forget") return r.print(`forgot ${plural(r.app.sessionRules.forget(), "rule")} remembered with \`a\``);
      const broken = managedProblem(r.app);
      r.print(formatRules(describeRules(r.app.settings, r.app.sessionRules.rules())) + (broken ? `\n${r.style("red", broken)}` : ""));
    },
    complete: (p) => ["forget"].filter((x) => x.startsWith(p)),
  },
  {
    name: "tools",
    description: "every tool, where it comes from, and what was left out",
    run: (r) => {
      const inPrefix = new Set(r.engine.prefix.tools.map((t) => t.function.name));
      const lines = r.app.registry.list().map((t) => `${t.spec.name.padEnd(14)} ${t.source.padEnd(12)} ${t.spec.readOnly ? "read-only" : "changes things"}${inPrefix.has(t.spec.name) ? "" : r.style("dim", t.spec.onDemand !== undefined ? "  (on demand: reached through UseTool)" : "  (arrived later: reached through UseTool)")}`);
      for (const p of r.app.plugins.filter((x) => !x.ok)) lines.push(r.style("yellow", `left out: plugin ${p.id ?? p.source} (${p.error})`));
      r.print(lines.join("\n"));
    },
  },
  {
    name: "sessions",
    description: "this project's sessions",
    run: (r) => {
      const list = listedSessions(r.app.store.list());
      const lines = sessionLines(list, r.style).flatMap((line, i) => [line, ...agentLines(r.app.store, list[i]).map((l) => r.style("dim", l))]);
      r.print(list.length ? `${lines.join("\n")}\n${r.style("dim", "/resume <number or id> to switch")}` : "No sessions yet.");
    },
  },
  {
    name: "output",
    args: "[N]",
    description: "the full output of the last tool call, or of call N (Ctrl-O: the last one)",
    run: (r, args) => {
      const a = args.trim();
      if (a && !/^#?\d+$/.test(a)) return r.print(r.style("yellow", `/output takes a call's number (the N in "· /output N" after its line), not "${inert(a)}"`));
      r.print(r.outputs.show(r.style, a ? Number(a.replace("#", "")) : undefined));
    },
  },
  { name: "resume", args: "[number|id]", description: "switch to an earlier session", run: (r, args) => r.resume(args.trim() || undefined) },
  { name: "new", description: "start a fresh session", run: (r) => r.newSession() },
  { name: "clear", description: "start a fresh session (same as /new)", run: (r) => r.newSession() },
  {
    name: "forget",
    description: "delete this session's file (after a confirmation) and start fresh",
    run: async (r) => {
      if (!(await r.confirm(`Delete session ${r.engine.sessionId} from disk?`))) return r.print("kept");
      const id = r.engine.sessionId;
      r.app.store.delete(id);
      await r.newSession();
      r.print(`deleted session ${id}`);
    },
  },
  {
    name: "think",
    args: "[on|off]",
    description: "show the model's reasoning in full (on) or folded to one line (off); without an argument, toggle",
    run: (r, args) => {
      const a = args.trim();
      if (a && a !== "on" && a !== "off") return r.print(r.style("yellow", `/think takes on or off (or nothing, to toggle), not '${a}'`));
      r.showThinking = a === "on" ? true : a === "off" ? false : !r.showThinking;
      r.print(`reasoning: ${r.showThinking ? "shown in full" : "folded to one line"}`);
    },
    complete: (p) => ["on", "off"].filter((x) => x.startsWith(p)),
  },
  {
    name: "reload",
    description: "read custom commands again; rebuild the cached prefix (instructions, tools) after showing what it costs",
    run: async (r) => {
      const changes = r.reloadCommands();
      if (changes.length) r.print(changes.join("\n"));
      const p = await r.engine.reloadPreview();
      if (!p.changed) return r.print(`The prefix is up to date; nothing to rebuild${changes.length ? "" : " (custom commands unchanged)"}.`);
      if (!(await r.confirm(`Rebuild the prefix? The next request re-reads about ${tokens(p.tokens)} tokens uncached.`))) return r.print("kept the current prefix");
      await r.engine.reload();
      r.print("prefix rebuilt");
    },
  },
  {
    name: "init",
    description: "write an AGENTS.md draft from what the repository shows",
    run: async (r) => {
      const { draftAgentsMd, writeInitFile } = await import("../init.js");
      const res = await writeInitFile(r.app.root, await draftAgentsMd(r.app.root));
      r.print(res.existed ? `AGENTS.md exists; the draft is in ${res.path}` : `wrote ${res.path}`);
    },
  },
  {
    name: "doctor",
    description: "check the set-up (key, network, settings, sandbox…)",
    run: async (r) => {
      const { doctorChecks, formatDoctor } = await import("../doctor.js");
      r.print(formatDoctor(await doctorChecks({ root: r.app.root, home: r.app.home, env: r.app.env }), r.style));
    },
  },
  { name: "exit", description: "leave (the session is saved)", run: (r) => r.exit() },
  { name: "quit", description: "leave (same as /exit)", run: (r) => r.exit() },
];

/** The widest command head /help lines up; longer ones get a line of their own. */
const HELP_COLUMN = 28;

export function helpText(r: ReplApi, extra: readonly SlashCommand[] = []): string {
  const all = [...BUILTIN_COMMANDS, ...extra];
  const head = (c: SlashCommand) => `/${c.name}${c.args ? ` ${c.args}` : ""}`;
  // The column fits the usual heads; a longer one (a plugin's, an MCP prompt's) takes a line of
  // its own, so one long name does not push every description off the screen.
  const width = Math.min(HELP_COLUMN, Math.max(...all.map((c) => head(c).length)));
  const row = (c: SlashCommand): string => {
    const h = head(c);
    if (h.length > width) return `${r.style("bold", h)}
${" ".repeat(width)}  ${c.description}`;
    return `${r.style("bold", h)}${" ".repeat(width - h.length)}  ${c.description}`;
  };
  return [
    ...all.map(row),
    "",
    r.style("dim", "@path inserts a file, @dir/ a listing · a trailing \\ continues a line · Ctrl-O shows the last tool call's full output · Ctrl-C interrupts a turn, twice at the prompt exits · Ctrl-D exits"),
  ].join("\n");
}
