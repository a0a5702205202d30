// Built-in mod: Claude Code compatible hooks. Settings entries under `hooks` become chain hooks —
// not a special path in the loop. Two plugins: this file's (every settings layer's hooks but the
// managed policy's, and enabled Claude Code plugins' hooks, in the user tier) and managed.ts's
// (the managed policy's hooks and those of plugins it enables, in the prepend tier). Each reads
// the settings layers (api.settings) and the enabled plugins (api.statusOf("marketplace")).
//
//   PreToolUse        tool.check       allow / ask / deny; a failing hook denies (fail-closed)
//   PostToolUse       tool.result      notes for the model after the tool's output
//   PermissionDenied  tool.decided     observe each denied call (a rule of any layer, a hook, a no)
//   UserPromptSubmit  prompt.submit    block the prompt, or add context
//   Stop              turn.complete    `decision: "block"` → the engine continues the turn
//   SubagentStop      turn.complete    the same, for a subagent's turn (Stop hooks do not run there)
//   SessionStart      session.start    context, added to the first prompt of the session
//   SessionEnd        session.end      observe
//   PreCompact        context.compact  block a compaction
//   Notification      permission.ask   a permission prompt is waiting (observe, never answer)
//
// Tool matchers see a tool's other names too (TOOL_ALIASES): `Agent` matches the Task tool.
// A command's `if` (if.ts) narrows PreToolUse/PostToolUse to the calls its rule matches.
//
// Background commands (`async`, `asyncRewake`: background.ts) never hold the event up. When one
// ends, what it said for the model (additionalContext, systemMessage) comes with the session's
// next prompt; an asyncRewake command's exit 2 wakes the model: while a turn runs, its stderr
// comes after the next tool result or, when the turn would end, as a continuation of the turn
// (as a Stop hook's block does); while the REPL waits for its person, api.wake starts a turn
// with it (at most MAX_WAKES in a row without the person's own prompt); where nobody can be
// woken (-p after its turn), it is reported to the person and comes with the next prompt.
//
// Every hook gets `permission_mode` from api.permissionMode and `transcript_path` pointing at
// the session in Claude Code's JSONL format (transcript.ts), brought up to date before it runs.
//
// On the gate: this hook never has the last word over settings. The permission gate's prepend
// hook runs first and answers a settings deny before any hook here runs; it then combines what
// these hooks answer with its own decision (gate.ts): a hook's allow lifts only the default ask,
// never a rule's ask. A hook's deny or ask always stands. When the hooks give no opinion the
// downstream answer is passed back untouched, so the gate still recognises its own default.

import { createHash } from "node:crypto";
import { isAbsolute, join } from "node:path";
import { homedir } from "node:os";
import { toolNames, type GateDecision, type JsonValue, type Plugin, type PluginApi, type ToolOutput } from "../../src/contract/index.js";
import { Background } from "./background.js";
import { deniedFields } from "./denied.js";
import { longestTimeoutMs, matching, readHookSet, type CallFacts, type HookCommand, type HookEvent, type HookSet } from "./config.js";
import { namedPaths } from "../../src/lib/named-paths.js";
import { backgroundAnswer, compactAnswer, observeAnswer, postToolAnswer, preToolAnswer, promptAnswer, stopAnswer, type Common, type Outcome } from "./outcome.js";
import { runHookCommand, short, type HookRun } from "./run.js";
import { forgetClaudeTranscript, syncClaudeTranscript } from "./transcript.js";

/** Slack on top of the longest command timeout for the chain's own limit on these hooks:
 *  a command's timeout (with its kill grace) must fire before the chain's watchdog does. */
const CHAIN_SLACK_MS = 5_000;

/** Turns background hooks may start in a row, without the person's prompt between them. */
const MAX_WAKES = 3;

/** PreToolUse context waiting for results, at most. */
const MAX_PENDING_CONTEXT = 256;

/** Turn endings that are not "the model finished responding": Stop hooks do not run. */
const NO_STOP_HOOK: ReadonlySet<string> = new Set(["interrupted", "error", "budget_exhausted"]);

/** Where the session store keeps a project's sessions: `<home>/sessions/<project>`. The rule
 *  duplicates src/core/session/folder-key.ts `sessionFolderKey` (a mod cannot import src/core); assembly
 *  passes `sessionsDir` so this fallback is only for hosts that do not. */
function defaultSessionsDir(home: string, root: string): string {
  const hash = createHash("sha256").update(root).digest("hex").slice(0, 12);
  return join(home, "sessions", `${root.replace(/[^A-Za-z0-9]/g, "-").slice(0, 120)}-${hash}`);
}

/** The hooks plugin of one scope: "managed" (prepend tier) or "settings" (user tier). */
export function hooksPlugin(scope: "managed" | "settings"): Plugin {
  return {
    id: "hooks",
    description: scope === "managed" ? "the managed policy's Claude Code hooks" : "Claude Code compatible hooks from settings (PreToolUse, PostToolUse, Stop …)",
    placement: scope === "managed" ? { tier: "prepend", after: ["permission-gate", "cost", "non-interactive"] } : { tier: "user" },
    register(api) {
      const set = readHookSet(hooksConfig(api, scope));
      for (const w of set.warnings) api.log.warn(w);
      registerHooks(api, set);
    },
  };
}

/** What readHookSet reads (config.ts): every settings layer's hooks, then each enabled plugin's
 *  as a layer of its own ("plugin", or "managed" for a plugin the managed policy enables). */
function hooksConfig(api: PluginApi, scope: "managed" | "settings"): Record<string, JsonValue> {
  const layers: JsonValue[] = api.settings.layers.map((l) => ({ name: l.name, file: l.file, hooks: l.settings.hooks ?? null, allowManagedHooksOnly: l.settings.allowManagedHooksOnly === true, disableAllHooks: l.settings.disableAllHooks === true }));
  for (const p of api.statusOf("marketplace")?.plugins ?? []) {
    if (p.hooks) layers.push({ name: p.managed ? "managed" : "plugin", file: `plugin ${p.id} (${p.hooks.files.join(", ")})`, hooks: p.hooks.hooks, allowManagedHooksOnly: false, env: p.hooks.env });
  }
  return { scope, layers, sessionsDir: api.host.sessionsDir };
}

export default hooksPlugin("settings");

function registerHooks(api: PluginApi, set: HookSet): void {
  const sessionsDir = set.sessionsDir ?? defaultSessionsDir(api.home, api.root);
  const who = set.scope === "managed" ? "the managed policy's " : "";
  const has = (event: HookEvent): boolean => (set.events.get(event)?.length ?? 0) > 0;
  const limit = (event: HookEvent) => ({ timeoutMs: longestTimeoutMs(set, event) + CHAIN_SLACK_MS });
  const say = (c: Common): void => {
    for (const m of c.messages) api.log.warn(m);
    for (const w of c.warnings) api.log.warn(`${who}${w}`);
  };
  const warnedUpdates = new Set<string>();
  /** PreToolUse additionalContext, waiting for the call's result (deleted when it arrives). */
  const callContext = new Map<string, string[]>();
  /** Context for the model with the session's next prompt: SessionStart's, and what
   *  background commands said after their event had gone on. */
  const later = new Map<string, string[]>();
  const addLater = (session: string, items: readonly string[]): void => void (later.get(session) ?? later.set(session, []).get(session)!).push(...items);
  /** The turn a Stop hook last continued, per session: `stop_hook_active`. */
  const continued = new Map<string, number>();
  /** Main sessions with a turn running, and the asyncRewake reports waiting to reach it. */
  const working = new Set<string>();
  const wakeNow = new Map<string, string[]>();
  /** Turns started by a wake since the person's last prompt, per session (bounded: MAX_WAKES). */
  const woken = new Map<string, number>();
  const wakeTexts = new Set<string>();
  const takeWake = (session: string): string[] => {
    const w = wakeNow.get(session) ?? [];
    wakeNow.delete(session);
    return w;
  };

  /** A subagent's session → its main session: its transcript is `<main>/<id>.jsonl`. */
  const mainOf = new Map<string, string>();
  const rootOf = (sessionId: string): string => mainOf.get(sessionId) ?? sessionId;
  api.on("turn.start", (e, next) => {
    if (e.agent) mainOf.set(e.sessionId, e.agent.rootSessionId);
    else working.add(e.sessionId);
    return next(e);
  });
  const transcriptOf = (sessionId: string): string => {
    const main = mainOf.get(sessionId);
    return main ? join(sessionsDir, main, `${sessionId}.jsonl`) : join(sessionsDir, `${sessionId}.jsonl`);
  };
  let transcriptWarned = false;
  /** The session's transcript in Claude Code's format, up to date now; its path. */
  const claudeTranscript = (sessionId: string): string => {
    const t = syncClaudeTranscript(sessionsDir, sessionId, transcriptOf(sessionId), { cwd: api.root, agent: mainOf.has(sessionId) });
    if (t.error && !transcriptWarned) {
      transcriptWarned = true;
      api.log.warn(`${t.error}; hooks that read transcript_path see it as it was`);
    }
    return t.path;
  };

  /** Start a turn with `text` where the session waits for its person (the REPL), at most
   *  MAX_WAKES in a row: a hook that wakes the model at every turn's end would never stop. */
  const tryWake = (session: string, text: string): boolean => {
    if ((woken.get(session) ?? 0) >= MAX_WAKES) return false;
    wakeTexts.add(text);
    if (!api.wake(session, text)) {
      wakeTexts.delete(text);
      return false;
    }
    woken.set(session, (woken.get(session) ?? 0) + 1);
    return true;
  };

  const userHome = process.env.HOME && isAbsolute(process.env.HOME) ? process.env.HOME : homedir();
  /** One command, started through the chain's process.launch (the sandbox contains it there),
   *  with what its configuration names outside the workspace shown to it (named.ts). */
  const runCommand = (c: HookCommand, input: { transcript_path?: string }, signal?: AbortSignal): Promise<HookRun> =>
    runHookCommand(c.command, input, {
      cwd: api.root,
      timeoutMs: c.timeoutMs,
      env: c.env,
      signal,
      launch: (req) => api.dispatch({ type: "process.launch", ...req }),
      readable: namedPaths(c.command, c.env ?? {}, api.root, userHome, input.transcript_path ? [input.transcript_path] : []),
      unsandboxed: c.unsandboxed,
    });

  const background = new Background(
    (f) => {
      const a = backgroundAnswer(f.outcome, f.event, f.rewake);
      say(a);
      if (a.context.length) addLater(f.session, a.context);
      if (a.wake === null) return;
      const text = `A background hook (\`${short(f.outcome.command)}\`, ${f.event}) reports: ${a.wake}`;
      if (working.has(f.session)) (wakeNow.get(f.session) ?? wakeNow.set(f.session, []).get(f.session)!).push(text);
      else if (!tryWake(f.session, text)) {
        addLater(f.session, [text]);
        api.log.warn(`${who}${f.event} hook \`${short(f.outcome.command)}\` (asyncRewake) reports: ${a.wake} — the model reads it with your next prompt`);
      }
    },
    (m) => api.log.warn(`${who}${m}`),
    (c, input, signal) => runCommand(c, input, signal),
  );
  const hasRewake = [...set.events.values()].some((gs) => gs.some((g) => g.commands.some((c) => c.background === "rewake")));
  const hasBackground = hasRewake || [...set.events.values()].some((gs) => gs.some((g) => g.commands.some((c) => c.background)));

  const run = async (event: HookEvent, value: string | readonly string[] | null, sessionId: string, fields: Record<string, unknown>, call?: CallFacts): Promise<{ outcomes: Outcome[]; problems: string[] }> => {
    const { commands, problems } = matching(set, event, value, call);
    if (commands.length === 0) return { outcomes: [], problems };
    const input = {
      session_id: sessionId,
      transcript_path: claudeTranscript(sessionId),
      cwd: api.root,
      permission_mode: api.permissionMode(sessionId),
      hook_event_name: event,
      ...fields,
    };
    for (const c of commands) if (c.background) background.start(rootOf(sessionId), event, c, input);
    const outcomes = await Promise.all(
      commands
        .filter((c) => !c.background)
        .map(async (c): Promise<Outcome> => ({ command: c.command, timeoutMs: c.timeoutMs, run: await runCommand(c, input) })),
    );
    return { outcomes, problems };
  };
  const callOf = (e: { tool: string; input: Readonly<Record<string, JsonValue>> }): CallFacts => ({ names: toolNames(e.tool), input: e.input, root: api.root });

  if (has("PreToolUse")) {
    const by = `${who}PreToolUse hook`;
    api.on(
      "tool.check",
      async (e, next): Promise<GateDecision> => {
        const { outcomes, problems } = await run("PreToolUse", toolNames(e.tool), e.sessionId, { tool_name: e.tool, tool_input: e.input, tool_use_id: e.callId }, callOf(e));
        if (problems.length) return { decision: "deny", reason: `a PreToolUse hook cannot run as configured (${problems.join("; ")})`, by };
        const a = preToolAnswer(outcomes, e.input);
        say(a);
        for (const command of a.ignoredUpdates) {
          if (warnedUpdates.has(command)) continue;
          warnedUpdates.add(command);
          api.log.warn(`${who}PreToolUse hook \`${short(command)}\` returned updatedInput: deepcode does not change a call's input from a hook, so such calls ask instead`);
        }
        if (a.decision === "deny") return { decision: "deny", reason: [a.reason, ...a.context].join("\n"), by };
        if (a.context.length) {
          // Kept until the call's result arrives; a call the person refuses never has one, so
          // the oldest entries go once there are many.
          callContext.set(e.callId, a.context);
          if (callContext.size > MAX_PENDING_CONTEXT) callContext.delete(callContext.keys().next().value as string);
        }
        const down = await next();
        if (a.decision === null || down.decision === "deny") return down;
        if (a.decision === "ask") return { decision: "ask", reason: a.reason, by };
        return down.decision === "allow" ? down : { decision: "allow", reason: a.reason, by };
      },
      limit("PreToolUse"),
    );
  }

  if (has("PermissionDenied")) {
    // Every denied call (tool.decided: a rule's of any layer, a hook's, a no); `retry` is not applied.
    api.on("tool.decided", async (e, next) => {
      const ran = e.decision === "deny" ? await run("PermissionDenied", toolNames(e.tool), e.sessionId, deniedFields(e), callOf(e)) : null;
      if (ran) say(observeAnswer(ran.outcomes, "PermissionDenied"));
      return next();
    }, limit("PermissionDenied"));
  }

  if (has("PostToolUse") || has("PreToolUse") || hasRewake) {
    api.on(
      "tool.result",
      async (e, next): Promise<ToolOutput> => {
        const r = await next();
        const notes = callContext.get(e.callId) ?? [];
        callContext.delete(e.callId);
        if (has("PostToolUse")) {
          const fields = { tool_name: e.tool, tool_input: e.input, tool_response: responseOf(e.input, r), tool_use_id: e.callId };
          const a = postToolAnswer((await run("PostToolUse", toolNames(e.tool), e.sessionId, fields, callOf(e))).outcomes);
          say(a);
          notes.push(...a.notes);
        }
        if (!mainOf.has(e.sessionId)) notes.push(...takeWake(e.sessionId));
        if (notes.length === 0) return r;
        return { ...r, content: `${r.content}\n\n${notes.map((n) => `[hook] ${n}`).join("\n\n")}` };
      },
      limit("PostToolUse"),
    );
  }

  if (has("UserPromptSubmit") || has("SessionStart") || hasBackground) {
    api.on(
      "prompt.submit",
      async (e, next) => {
        if (!wakeTexts.delete(e.text)) woken.delete(e.sessionId); // the person's own prompt
        const context = later.get(e.sessionId) ?? [];
        later.delete(e.sessionId);
        if (has("UserPromptSubmit")) {
          const a = promptAnswer((await run("UserPromptSubmit", null, e.sessionId, { prompt: e.text })).outcomes, "UserPromptSubmit");
          say(a);
          if (a.blocked !== null) {
            if (context.length) addLater(e.sessionId, context); // for the next prompt
            return { text: e.text, blocked: a.blocked };
          }
          context.push(...a.context);
        }
        const r = await next();
        return context.length ? { ...r, context: [...(r.context ?? []), ...context] } : r;
      },
      limit("UserPromptSubmit"),
    );
  }

  if (set.events.size > 0) {
    api.on(
      "turn.complete",
      async (e, next) => {
        const r = await stopHooks(e, await next());
        if (e.agent) return r;
        claudeTranscript(e.sessionId); // kept current each turn, whoever reads it later
        if (r?.continueWith) return r; // the turn goes on
        const wake = takeWake(e.sessionId);
        if (wake.length && e.stopReason === "completed") return { ...(r ?? {}), continueWith: wake.join("\n\n") };
        if (wake.length) addLater(e.sessionId, wake); // the turn failed: with the next prompt
        working.delete(e.sessionId);
        return r;
      },
      { timeoutMs: Math.max(longestTimeoutMs(set, "Stop"), longestTimeoutMs(set, "SubagentStop")) + CHAIN_SLACK_MS },
    );
  }

  /** Stop / SubagentStop: the answer of turn.complete with what the hooks ask. */
  async function stopHooks(e: { sessionId: string; turn: number; stopReason: string; text: string; agent?: { name: string; rootSessionId: string } }, r: { continueWith?: string } | void): Promise<{ continueWith?: string } | void> {
    // As Claude Code: not on an interrupt, nor when the turn failed or never reached the model.
    const event = e.agent ? "SubagentStop" : "Stop";
    if (NO_STOP_HOOK.has(e.stopReason) || !has(event)) return r;
    const agentFields = e.agent ? { agent_type: e.agent.name, agent_id: e.sessionId, agent_transcript_path: claudeTranscript(e.sessionId), transcript_path: claudeTranscript(e.agent.rootSessionId) } : {};
    const fields = { stop_hook_active: continued.get(e.sessionId) === e.turn, last_assistant_message: e.text, ...agentFields };
    const a = stopAnswer((await run(event, null, e.sessionId, fields)).outcomes);
    say(a);
    if (a.continueWith === null || e.stopReason !== "completed" || r?.continueWith) return r;
    continued.set(e.sessionId, e.turn);
    return { ...(r ?? {}), continueWith: a.continueWith };
  }

  if (has("SessionStart")) {
    api.on(
      "session.start",
      async (e, next) => {
        await next();
        const source = e.resumed ? "resume" : "startup";
        const a = promptAnswer((await run("SessionStart", source, e.sessionId, { source, model: e.model })).outcomes, "SessionStart");
        say(a);
        if (a.context.length) addLater(e.sessionId, a.context);
      },
      limit("SessionStart"),
    );
  }

  if (set.events.size > 0) {
    api.on(
      "session.end",
      async (e, next) => {
        await next();
        background.end(e.sessionId); // background hooks die with their session
        later.delete(e.sessionId);
        wakeNow.delete(e.sessionId);
        woken.delete(e.sessionId);
        working.delete(e.sessionId);
        continued.delete(e.sessionId);
        if (has("SessionEnd")) say(observeAnswer((await run("SessionEnd", e.reason, e.sessionId, { reason: e.reason })).outcomes, "SessionEnd"));
        for (const [sub, main] of mainOf) {
          if (main !== e.sessionId) continue;
          mainOf.delete(sub);
          forgetClaudeTranscript(sessionsDir, sub);
        }
        forgetClaudeTranscript(sessionsDir, e.sessionId);
      },
      limit("SessionEnd"),
    );
  }

  if (has("PreCompact")) {
    api.on(
      "context.compact",
      async (e, next) => {
        const trigger = e.auto ? "auto" : "manual";
        const a = compactAnswer((await run("PreCompact", trigger, e.sessionId, { trigger, custom_instructions: e.instructions ?? "" })).outcomes);
        say(a);
        if (a.blocked !== null) return { ok: false, tokensBefore: 0, tokensAfter: 0, error: `blocked by a PreCompact hook: ${a.blocked}` };
        return next();
      },
      limit("PreCompact"),
    );
  }

  if (has("Notification")) {
    // Observe only: the notification runs beside the prompt, never delays or answers it.
    api.on("permission.ask", async (e, next) => {
      const message = `deepcode needs your permission to use ${e.tool}`;
      void run("Notification", "permission_prompt", e.sessionId, { message, notification_type: "permission_prompt" }).then(({ outcomes }) => say(observeAnswer(outcomes, "Notification")));
      return next();
    });
  }
}

/** `tool_response` for PostToolUse: deepcode's tool output, with the fields Claude Code hooks
 *  most often read (`success`, `filePath`) where they make sense. */
function responseOf(input: Readonly<Record<string, JsonValue>>, r: ToolOutput): Record<string, unknown> {
  const out: Record<string, unknown> = { content: r.content, is_error: r.isError === true, success: r.isError !== true };
  if (typeof input.file_path === "string") out.filePath = input.file_path;
  if (r.meta) out.meta = r.meta;
  return out;
}
