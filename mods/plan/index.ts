// Built-in mod: plan mode. Before a large change the model looks and proposes, and touches
// nothing until the person says go.
//
// While a session plans:
//   - tool.check: every call that is not read-only is denied, with a reason that tells the
//     model it is planning — the session's own, and any other session's while a planning turn
//     runs (a subagent it starts plans with it). A shell command passes only when `tool.effects` says it only reads.
//     Assembly loads this mod in the prepend tier right inside the permission gate, so the deny
//     is outer to every plugin and hook (none can allow a write then), and no `a` answer can
//     let one through: the call never reaches permission.ask.
//   - turn.start: the turn runs on the planner (config `planner`: settings `planner`, default
//     reasoner-budget), marked `purpose: "plan"`; the budget gate, outside this hook, still
//     downgrades it at 80%. Execution runs on the session's own tier.
//   - context.tail: the planning instruction rides at the turn's tail, never in the prefix
//     (the tools offered are the same in every mode, so the prefix never changes).
//   - turn.complete: the turn's answer is the plan; it waits for go, edit or drop. The planning
//     turn ends when turn.complete returns without a Stop hook's continueWith.
//   - fs.write, process.run: while a planning turn runs, no file is written and only a command
//     `tool.effects` calls read-only runs, whatever tool asks (one that claims readOnly too);
//     it runs with `readOnly: true`, so the Bash sandbox binds the workspace read-only as well.
//
// `/plan TASK` runs the planning turn, then asks the person: go (the next turn carries the plan
// out; the plan is in the log), edit (notes go back to the planner, which revises), drop. Config
// `start: true` (`--permission-mode plan`) plans every turn of the run: `-p` prints the plan and
// exits. api.status reports { planning, awaiting, planner } for the REPL.

import { ConfigError, DeniedError, type JsonValue, type Plugin, type PluginApi, type CommandContext, type KnownStatus, type TurnProfile } from "../../src/contract/index.js";
import { deniedWhilePlanning, DROPPED_NOTE, GO_PROMPT, PLANNING_NOTE, revisePrompt, USAGE } from "./prompts.js";

interface SessionPlan {
  planning: boolean;
  /** A plan came back and waits for go, edit or drop. */
  awaiting: boolean;
  plan?: string;
  /** Notes for the next turn's tail (a dropped plan). */
  notes: string[];
}

const plugin: Plugin = {
  id: "plan",
  description: "plan mode: read-only planning turns on a planner tier, then go, edit or drop",
  // Prepend, right inside the permission gate and the cost engine: its deny while planning is
  // outer to every plugin and hook (none can allow a write then, and a downstream deny is final
  // at the gate), and its planner profile is applied inside the budget gate.
  placement: { tier: "prepend", after: ["permission-gate", "cost", "non-interactive"] },
  register(api) {
    const planner = plannerOf(api.settings.get("planner"), api.host.tiers, api.settings.fileOf("planner"));
    const start = api.host.flags.planMode;
    const sessions = new Map<string, SessionPlan>();
    let current = "";
    const state = (id: string): SessionPlan => {
      let s = sessions.get(id);
      if (!s) sessions.set(id, (s = { planning: start, awaiting: false, notes: [] }));
      return s;
    };

    api.on("session.start", (e, next) => {
      current = e.sessionId;
      mains.add(e.sessionId);
      state(e.sessionId);
      return next(e);
    });

    // A rewound conversation no longer holds the plan that waited: `go` would approve a plan
    // the model cannot see.
    api.on("context.rewind", async (e, next) => {
      const r = await next(e);
      const s = sessions.get(e.sessionId);
      if (r.ok && s?.awaiting) Object.assign(s, { awaiting: false, plan: undefined });
      return r;
    });

    // A planning turn running now (session and turn): whatever it starts inside — a subagent's
    // session with an id of its own — plans with it, so its changes are denied too; another
    // main session (an editor's other thread, known by its session.start) does not. Subagents'
    // sessions map to the main session they work for (turn.start's `agent`), calls to their
    // session (tool.call), so a write or a command is judged by the session whose call made it.
    // A session of unknown origin, or a write no call made (a plugin's own), is denied while
    // any session plans.
    const planningTurns = new Set<string>();
    const mains = new Set<string>();
    const rootOf = new Map<string, string>();
    const callsOf = new Map<string, string[]>();
    const turnPlans = (sessionId: string): boolean => {
      const root = rootOf.get(sessionId) ?? (mains.has(sessionId) ? sessionId : undefined);
      return root === undefined ? planningTurns.size > 0 : [...planningTurns].some((k) => k.startsWith(`${root}\u0000`));
    };
    const planning = (sessionId: string): boolean => sessions.get(sessionId)?.planning === true || turnPlans(sessionId);
    // Call ids are the model's: two sessions may use the same one at once, so each id keeps
    // every session using it, and any of them planning is enough to deny.
    const planningFor = (callId: string | undefined): boolean => {
      const ids = callId === undefined ? undefined : callsOf.get(callId);
      return ids ? ids.some(turnPlans) : planningTurns.size > 0;
    };
    api.on("tool.call", async (e, next) => {
      callsOf.set(e.callId, [...(callsOf.get(e.callId) ?? []), e.sessionId]);
      try {
        return await next(e);
      } finally {
        const ids = callsOf.get(e.callId) ?? [];
        const left = ids.filter((_, i) => i !== ids.indexOf(e.sessionId));
        if (left.length) callsOf.set(e.callId, left);
        else callsOf.delete(e.callId);
      }
    });

    api.on("tool.check", async (e, next) => {
      if (!planning(e.sessionId) || e.readOnly === true) return next(e);
      if (e.tool === "Bash") {
        const fx = await api.dispatch({ type: "tool.effects", sessionId: e.sessionId, tool: e.tool, input: e.input });
        if (fx.readOnly) return next(e);
      }
      return { decision: "deny", reason: deniedWhilePlanning(e.tool), by: "plan mode" };
    });

    api.on("turn.start", async (e, next) => {
      // A turn of this session that ended without turn.complete (it failed inside) ends here.
      for (const k of [...planningTurns]) if (k.startsWith(`${e.sessionId}\u0000`)) planningTurns.delete(k);
      if (e.agent) rootOf.set(e.sessionId, e.agent.rootSessionId);
      const r = await next(e);
      if (!sessions.get(e.sessionId)?.planning || r?.refuse) return r;
      planningTurns.add(`${e.sessionId}\u0000${e.turn}`);
      const notices = [...(r?.notices ?? []), `planning with ${planner.label}: read-only tools only, the answer is a plan to review`];
      return { ...(r ?? {}), profile: { ...planner.profile, purpose: "plan" }, notices };
    });

    api.on("context.tail", async (e, next) => {
      const r = await next(e);
      const s = sessions.get(e.sessionId);
      if (!s) return r;
      const notes = [...r.notes, ...s.notes.splice(0).map((text, i) => ({ id: `plan-${i}`, text }))];
      if (s.planning) notes.push({ id: "plan-mode", text: PLANNING_NOTE });
      return { notes };
    });

    // A Stop hook's continueWith keeps the same turn running (and its subagents planning with
    // it): the planning turn ends only when turn.complete comes back without one — or, when the
    // engine stops continuing at its bound, at the session's next turn.start.
    api.on("turn.complete", async (e, next) => {
      const s = sessions.get(e.sessionId);
      if (s?.planning && e.stopReason === "completed" && e.text.trim()) {
        s.awaiting = true;
        s.plan = e.text;
      }
      const r = await next(e);
      if (!r?.continueWith) planningTurns.delete(`${e.sessionId}\u0000${e.turn}`);
      if (e.agent && !r?.continueWith) rootOf.delete(e.sessionId);
      return r;
    });

    // Defence in depth while a planning turn runs: a tool that claims to be read-only (a
    // plugin's, an MCP server's) still cannot write a file or run a command that is not a
    // reader's, whatever it told tool.check.
    api.on("fs.write", (e, next) => {
      if (planningFor(e.callId)) throw new DeniedError(`plan mode: you are planning, so nothing is written now (${e.path}); the plan names the change instead`, "plan mode");
      return next(e);
    });
    api.on("process.run", async (e, next) => {
      if (!planningFor(e.callId)) return next(e);
      const command = shellLine(e.argv, e.command);
      const fx = await api.dispatch({ type: "tool.effects", sessionId: "", tool: "Bash", input: { command }, cwd: e.cwd });
      if (!fx.readOnly) throw new DeniedError(`plan mode: you are planning, so only commands that read run now (not ${command.length > 80 ? `${command.slice(0, 79)}…` : command})`, "plan mode");
      // And where a sandbox runs it, nothing is writable either: what the reader missed cannot write.
      return next({ ...e, readOnly: true });
    });

    api.status(() => {
      const s = sessions.get(current);
      const report: KnownStatus["plan"] = { planning: s?.planning ?? start, awaiting: s?.awaiting ?? false, planner: planner.label, planningIn: [...sessions].flatMap(([id, x]) => (x.planning ? [id] : [])) };
      if (planner.profile.tier) report.plannerTier = planner.profile.tier;
      return report;
    });

    api.command({
      name: "plan",
      args: "[TASK | go | edit NOTES | drop | off]",
      description: `plan a task first with ${planner.label} (read-only), then go, edit or drop the plan`,
      complete: (p) => ["go", "edit", "drop", "off"].filter((x) => x.startsWith(p)),
      run: (ctx) => command(api, ctx, state(ctx.sessionId), planner.label),
    });
  },
};

/** The Bash tool's own epilogue after the command (it reports the folder the shell ends in). */
const BASH_EPILOGUE = /^([\s\S]*)\n__deepcode_status=\$\?\nprintf '\\n__deepcode_cwd_[0-9a-f]{16}__%s\\n' "\$PWD"\nexit \$__deepcode_status\n$/;

/** The shell line a process runs: the script of `bash -c SCRIPT` (the Bash tool's command when
 *  the rest is its epilogue), else the argv quoted word by word. */
function shellLine(argv: string[], command: string | undefined): string {
  if (argv.length === 3 && /^(?:\/(?:usr\/)?bin\/)?(?:ba)?sh$/.test(argv[0]) && argv[1] === "-c") {
    const m = BASH_EPILOGUE.exec(argv[2]);
    return m && m[1] === command ? m[1] : argv[2];
  }
  return argv.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
}

async function command(api: PluginApi, ctx: CommandContext, s: SessionPlan, label: string): Promise<void> {
  let args = ctx.args.trim();
  // `/plan -- TASK`: all of it is the task (a prompt typed in plan mode comes this way, so
  // "go with option B" or "drop the old API" is planned, never read as a verb).
  const task = /^--(?:\s|$)/.test(args);
  if (task) args = args.slice(2).trim();
  const [verb, ...rest] = task ? [""] : args.split(/\s+/);
  if (args === "") {
    if (s.awaiting) return review(api, ctx, s);
    return ctx.print(`${s.planning ? "plan mode is on: your next prompt is planned" : "plan mode is off"} (planner: ${label})\n${USAGE}`);
  }
  if (verb === "off") {
    Object.assign(s, { planning: false, awaiting: false });
    return ctx.print("plan mode off: prompts run on the session's tier again");
  }
  if (verb === "go" || verb === "drop" || (verb === "edit" && rest.length === 0)) {
    if (!s.awaiting) return ctx.print("no plan is waiting for an answer: /plan TASK plans one");
    if (verb === "go") return go(ctx, s);
    if (verb === "drop") return drop(ctx, s);
    const notes = await askNotes(api, ctx);
    return notes ? revise(api, ctx, s, notes) : ctx.print("no notes: the plan still waits (/plan go, /plan edit NOTES, /plan drop)");
  }
  if (verb === "edit") return revise(api, ctx, s, rest.join(" "));
  Object.assign(s, { planning: true, awaiting: false });
  await ctx.submit(args);
  return review(api, ctx, s);
}

/** The plan came back: ask go, edit or drop. */
async function review(api: PluginApi, ctx: CommandContext, s: SessionPlan): Promise<void> {
  if (!s.awaiting) {
    if (s.planning) ctx.print("no plan came back (the turn did not complete): your next prompt plans again; /plan off leaves plan mode");
    return;
  }
  if (!ctx.interactive) return ctx.print("the plan waits: /plan go, /plan edit NOTES or /plan drop");
  const a = await api.dispatch({
    type: "person.ask",
    sessionId: ctx.sessionId,
    kind: "plan.review",
    from: "plan",
    title: "The plan is ready: go, edit or drop?",
    detail: ["go carries it out now on the session's tier; edit sends your notes to the planner"],
    choices: [
      { key: "g", label: "go" },
      { key: "e", label: "edit" },
      { key: "d", label: "drop" },
    ],
  });
  if (a.decision !== "allow") return ctx.print("the plan waits: /plan go, /plan edit NOTES or /plan drop (your next prompt revises it)");
  if (a.choice === "g") return go(ctx, s);
  if (a.choice === "d") return drop(ctx, s);
  const notes = await askNotes(api, ctx);
  return notes ? revise(api, ctx, s, notes) : ctx.print("no notes: the plan still waits (/plan go, /plan edit NOTES, /plan drop)");
}

async function go(ctx: CommandContext, s: SessionPlan): Promise<void> {
  Object.assign(s, { planning: false, awaiting: false });
  await ctx.submit(GO_PROMPT);
}

function drop(ctx: CommandContext, s: SessionPlan): void {
  Object.assign(s, { planning: false, awaiting: false });
  s.notes.push(DROPPED_NOTE);
  ctx.print("plan dropped (the model is told at the next turn); plan mode off");
}

async function revise(api: PluginApi, ctx: CommandContext, s: SessionPlan, notes: string): Promise<void> {
  Object.assign(s, { planning: true, awaiting: false });
  await ctx.submit(revisePrompt(notes));
  return review(api, ctx, s);
}

async function askNotes(api: PluginApi, ctx: CommandContext): Promise<string | undefined> {
  const a = await api.dispatch({
    type: "person.ask",
    sessionId: ctx.sessionId,
    kind: "plan.notes",
    from: "plan",
    title: "Your notes for the planner",
    detail: ["the planner revises the plan with them (still read-only)"],
    fields: [{ name: "notes", title: "notes", type: "string", required: true }],
  });
  const v = a.decision === "allow" ? a.values?.notes : undefined;
  return typeof v === "string" && v.trim() ? v.trim() : undefined;
}

export const DEFAULT_PLANNER = "reasoner-budget";

/** Settings `planner`: a tier (chat-fast, chat-full, reasoner-budget, reasoner; default
 *  reasoner-budget) or a model name. Execution runs on the session's own tier. */
export function plannerOf(v: JsonValue | undefined, tiers: Readonly<Record<string, TurnProfile>>, file?: string): { label: string; profile: TurnProfile } {
  const name = v === undefined || v === null ? DEFAULT_PLANNER : v;
  if (typeof name !== "string" || name.trim() === "") throw new ConfigError(`planner: expected a tier (chat-fast, chat-full, reasoner-budget, reasoner) or a model name, got ${JSON.stringify(v)}`, file);
  const n = name.trim();
  const tier = tiers[n];
  if (tier) return { label: `${n} (${tier.model})`, profile: { ...tier } };
  return { label: n, profile: { model: n } };
}

export default plugin;
