// Built-in mod: Claude Code compatible hooks. Settings entries under `hooks` become chain hooks —
// not a special path in the loop. Two plugins: this file's (every settings layer's hooks but the
// managed policy's, and enabled Claude Code plugins' hooks, in the user tier) and managed.ts's
// (the managed policy's hooks and those of plugins it enables, in the prepend tier). Each reads
// the settings layers (api.settings) and the enabled plugins (api.statusOf("marketplace")).
//
//   PreToolUse        tool.check       allow / ask / deny; a failing hook denies (fail-closed)
//   PostToolUse       tool.result      notes for the model after the tool's output
//   UserPromptSubmit  prompt.submit    block the prompt, or add context
//   Stop              turn.complete    `decision: "block"` → the engine continues the turn
//   SubagentStop      turn.complete    the same, for a subagent's turn (Stop hooks do not run there)
//   SessionStart      session.start    context, added to the first prompt of the session
//   SessionEnd        session.end      observe
//   PreCompact        context.compact  block a compaction
//   Notification      permission.ask   a permission prompt is waiting (observe, never answer)
//
// Tool matchers see a tool's other names too (TOOL_ALIASES): `Agent` matches the Task tool.
//
// On the gate: this hook never has the last word over settings. The permission gate's prepend
// hook runs first and answers a settings deny before any hook here runs; it then combines what
// these hooks answer with its own decision (gate.ts): a hook's allow lifts only the default ask,
// never a rule's ask. A hook's deny or ask always stands. When the hooks give no opinion the
// downstream answer is passed back untouched, so the gate still recognises its own default.

import { createHash } from "node:crypto";
import { join } from "node:path";
import { toolNames, type GateDecision, type JsonValue, type Plugin, type PluginApi, type ToolOutput } from "../../src/contract/index.js";
import { longestTimeoutMs, matching, readHookSet, type HookEvent, type HookSet } from "./config.js";
import { compactAnswer, observeAnswer, postToolAnswer, preToolAnswer, promptAnswer, stopAnswer, type Common, type Outcome } from "./outcome.js";
import { runHookCommand, short } from "./run.js";

/** Slack on top of the longest command timeout for the chain's own limit on these hooks:
 *  a command's timeout (with its kill grace) must fire before the chain's watchdog does. */
const CHAIN_SLACK_MS = 5_000;

/** PreToolUse context waiting for results, at most. */
const MAX_PENDING_CONTEXT = 256;

/** Turn endings that are not "the model finished responding": Stop hooks do not run. */
const NO_STOP_HOOK: ReadonlySet<string> = new Set(["interrupted", "error", "budget_exhausted"]);

/** Where the session store keeps a project's sessions: `<home>/sessions/<project>`. The rule
 *  duplicates src/core/session/store.ts `projectKey` (a mod cannot import src/core); assembly
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
  const layers: JsonValue[] = api.settings.layers.map((l) => ({ name: l.name, file: l.file, hooks: l.settings.hooks ?? null, allowManagedHooksOnly: l.settings.allowManagedHooksOnly === true }));
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
  /** SessionStart context, waiting for the session's first prompt. */
  const sessionContext = new Map<string, string[]>();
  /** The turn a Stop hook last continued, per session: `stop_hook_active`. */
  const continued = new Map<string, number>();

  /** A subagent's session → its main session: its transcript is `<main>/<id>.jsonl`. */
  const mainOf = new Map<string, string>();
  api.on("turn.start", (e, next) => {
    if (e.agent) mainOf.set(e.sessionId, e.agent.rootSessionId);
    return next(e);
  });
  const transcriptOf = (sessionId: string): string => {
    const main = mainOf.get(sessionId);
    return main ? join(sessionsDir, main, `${sessionId}.jsonl`) : join(sessionsDir, `${sessionId}.jsonl`);
  };

  const run = async (event: HookEvent, value: string | readonly string[] | null, sessionId: string, fields: Record<string, unknown>): Promise<{ outcomes: Outcome[]; problems: string[] }> => {
    const { commands, problems } = matching(set, event, value);
    const input = {
      session_id: sessionId,
      transcript_path: transcriptOf(sessionId),
      cwd: api.root,
      permission_mode: "default",
      hook_event_name: event,
      ...fields,
    };
    const outcomes = await Promise.all(
      commands.map(async (c): Promise<Outcome> => ({ command: c.command, timeoutMs: c.timeoutMs, run: await runHookCommand(c.command, input, { cwd: api.root, timeoutMs: c.timeoutMs, env: c.env }) })),
    );
    return { outcomes, problems };
  };

  if (has("PreToolUse")) {
    const by = `${who}PreToolUse hook`;
    api.on(
      "tool.check",
      async (e, next): Promise<GateDecision> => {
        const { outcomes, problems } = await run("PreToolUse", toolNames(e.tool), e.sessionId, { tool_name: e.tool, tool_input: e.input, tool_use_id: e.callId });
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

  if (has("PostToolUse") || has("PreToolUse")) {
    api.on(
      "tool.result",
      async (e, next): Promise<ToolOutput> => {
        const r = await next();
        const notes = callContext.get(e.callId) ?? [];
        callContext.delete(e.callId);
        if (has("PostToolUse")) {
          const fields = { tool_name: e.tool, tool_input: e.input, tool_response: responseOf(e.input, r), tool_use_id: e.callId };
          const a = postToolAnswer((await run("PostToolUse", toolNames(e.tool), e.sessionId, fields)).outcomes);
          say(a);
          notes.push(...a.notes);
        }
        if (notes.length === 0) return r;
        return { ...r, content: `${r.content}\n\n${notes.map((n) => `[hook] ${n}`).join("\n\n")}` };
      },
      limit("PostToolUse"),
    );
  }

  if (has("UserPromptSubmit") || has("SessionStart")) {
    api.on(
      "prompt.submit",
      async (e, next) => {
        const context = sessionContext.get(e.sessionId) ?? [];
        sessionContext.delete(e.sessionId);
        if (has("UserPromptSubmit")) {
          const a = promptAnswer((await run("UserPromptSubmit", null, e.sessionId, { prompt: e.text })).outcomes, "UserPromptSubmit");
          say(a);
          if (a.blocked !== null) {
            if (context.length) sessionContext.set(e.sessionId, context); // for the next prompt
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

  if (has("Stop") || has("SubagentStop")) {
    api.on(
      "turn.complete",
      async (e, next) => {
        const r = await next();
        // As Claude Code: not on an interrupt, nor when the turn failed or never reached the model.
        const event = e.agent ? "SubagentStop" : "Stop";
        if (NO_STOP_HOOK.has(e.stopReason) || !has(event)) return r;
        const fields = { stop_hook_active: continued.get(e.sessionId) === e.turn, last_assistant_message: e.text, ...(e.agent ? { agent_type: e.agent.name, agent_id: e.sessionId } : {}) };
        const a = stopAnswer((await run(event, null, e.sessionId, fields)).outcomes);
        say(a);
        if (a.continueWith === null || e.stopReason !== "completed" || r?.continueWith) return r;
        continued.set(e.sessionId, e.turn);
        return { ...(r ?? {}), continueWith: a.continueWith };
      },
      { timeoutMs: Math.max(longestTimeoutMs(set, "Stop"), longestTimeoutMs(set, "SubagentStop")) + CHAIN_SLACK_MS },
    );
  }

  if (has("SessionStart")) {
    api.on(
      "session.start",
      async (e, next) => {
        await next();
        const source = e.resumed ? "resume" : "startup";
        const a = promptAnswer((await run("SessionStart", source, e.sessionId, { source, model: e.model })).outcomes, "SessionStart");
        say(a);
        if (a.context.length) sessionContext.set(e.sessionId, a.context);
      },
      limit("SessionStart"),
    );
  }

  if (set.events.size > 0) {
    api.on(
      "session.end",
      async (e, next) => {
        await next();
        sessionContext.delete(e.sessionId);
        continued.delete(e.sessionId);
        if (has("SessionEnd")) say(observeAnswer((await run("SessionEnd", e.reason, e.sessionId, { reason: e.reason })).outcomes, "SessionEnd"));
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
