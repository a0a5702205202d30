// Built-in mod: local telemetry, off by default. Six events — session start and end, a turn
// complete (stop reason, cost, cache rate), a tool call's outcome by tool name, an error by
// code, a compaction — one JSON line each, appended to `$DEEPCODE_HOME/telemetry.jsonl`, and
// nothing is ever sent anywhere. Every line is built from enumerations, numbers, booleans and
// names the registry knows, then checked against the closed schema in src/contract/telemetry.ts;
// a line that does not conform is dropped whole (and counted), never cut or rewritten.
//
// Only the person's own settings (`~/.deepcode/settings.json`: `"telemetry": true`, or
// `{"enabled": true}`) turn it on (telemetrySetting). A project, local or `--settings` file that
// tries is ignored with a warning — trusted or not: it is the person's decision, not a
// repository's. The managed policy can force it off (`false`); a managed `true` is ignored the
// same way. The file is `<deepcode home>/telemetry.jsonl`; models are the ones deepcode knows
// (api.host.models). Placement: prepend tier, before everything (`before: ["*"]`), so it sees
// every final decision: a call the gate denies outright never reaches an inner tier.
//
// Tool names: a name counts as the registry's when the engine offered it to the model
// (`tool.list`) or checked a call to it as a registered tool (`tool.check` with a readOnly
// flag); a name the model made up is not written.

import { appendFileSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { checkTelemetryLine, ERROR_CODES, SESSION_END_REASONS, TELEMETRY_VERSION, type JsonValue, type Plugin, type SettingsView, type TelemetryEvent } from "../../src/contract/index.js";
import { knownTools } from "../../src/lib/known-tools.js";
import { telemetryFile, telemetrySubcommand } from "./report.js";

interface TurnState {
  startedAt: number;
  costUsd: number;
  steps: number;
}

const plugin: Plugin = {
  id: "telemetry",
  description: "local telemetry (off by default): six events, a closed schema, never sent",
  placement: { tier: "prepend", before: ["*"] },
  register(api) {
    const setting = telemetrySetting(api.settings);
    setting.warnings.forEach((w) => api.log.warn(w));
    // `deepcode telemetry` reads what was recorded, also once telemetry is off again.
    api.subcommand(telemetrySubcommand(api.home));
    if (!setting.enabled) return;
    const file = telemetryFile(api.home);
    const models = new Set(api.host.models);
    const tools = knownTools(api);
    const turns = new Map<string, TurnState>();
    const turnCount = new Map<string, number>();
    let dropped = 0;

    const write = (event: TelemetryEvent, session: string, fields: Record<string, string | number | boolean>): void => {
      const line = { v: TELEMETRY_VERSION, event, at: new Date().toISOString(), session, ...fields };
      const why = checkTelemetryLine(line, { tools, models });
      if (why) {
        dropped++;
        if (dropped === 1) api.log.warn(`a telemetry line did not conform to its schema (${event}: ${why}) and was dropped`);
        return;
      }
      try {
        mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
        appendFileSync(file, `${JSON.stringify(line)}\n`, { mode: 0o600 });
      } catch (err) {
        api.log.warn(`cannot write ${file}: ${err instanceof Error ? err.message : String(err)}`);
      }
    };
    const toolCall = (session: string, tool: string, outcome: "ok" | "error" | "denied" | "suppressed"): void => write("tool_call", session, { tool, outcome });

    api.on("session.start", async (e, next) => {
      await next();
      write("session_start", e.sessionId, { resumed: e.resumed, model: models.has(e.model) ? e.model : "other" });
    });
    api.on("session.end", async (e, next) => {
      await next();
      const reason = (SESSION_END_REASONS as readonly string[]).includes(e.reason) ? e.reason : "other";
      write("session_end", e.sessionId, { reason, turns: turnCount.get(e.sessionId) ?? 0 });
      turnCount.delete(e.sessionId);
    });
    api.on("turn.start", async (e, next) => {
      turns.set(e.sessionId, { startedAt: Date.now(), costUsd: 0, steps: 0 });
      return next();
    });
    api.on("turn.step", async (e, next) => {
      const t = turns.get(e.sessionId);
      if (t) t.steps++;
      return next();
    });
    api.on("model.usage", async (e, next) => {
      const r = await next();
      const t = turns.get(e.sessionId);
      if (t && r) t.costUsd += r.costUsd;
      return r;
    });
    api.on("turn.complete", async (e, next) => {
      const r = await next();
      const t = turns.get(e.sessionId);
      turns.delete(e.sessionId);
      turnCount.set(e.sessionId, (turnCount.get(e.sessionId) ?? 0) + 1);
      const u = e.usage;
      write("turn_complete", e.sessionId, {
        turn: e.turn,
        stop: e.stopReason,
        steps: t?.steps ?? 0,
        cost_usd: Math.round((t?.costUsd ?? 0) * 1e8) / 1e8,
        cache_rate: u.prompt_tokens > 0 ? Math.round((u.prompt_cache_hit_tokens / u.prompt_tokens) * 1e4) / 1e4 : 0,
        prompt_tokens: u.prompt_tokens,
        cached_tokens: u.prompt_cache_hit_tokens,
        completion_tokens: u.completion_tokens,
        duration_ms: t ? Date.now() - t.startedAt : 0,
      });
      return r;
    });
    api.on("tool.check", async (e, next) => {
      const r = await next();
      if (r.decision === "deny") toolCall(e.sessionId, e.tool, r.by?.startsWith("repair:call-storm") ? "suppressed" : "denied");
      return r;
    });
    api.on("permission.ask", async (e, next) => {
      const r = await next();
      if (r.decision === "deny") toolCall(e.sessionId, e.tool, "denied");
      return r;
    });
    api.on("tool.result", async (e, next) => {
      const r = await next();
      toolCall(e.sessionId, e.tool, r.meta?.outcome === "suppressed" ? "suppressed" : r.isError ? "error" : "ok");
      return r;
    });
    api.on("context.compact", async (e, next) => {
      const r = await next();
      write("compaction", e.sessionId, { auto: e.auto, ok: r.ok, tokens_before: Math.round(r.tokensBefore), tokens_after: Math.round(r.tokensAfter) });
      return r;
    });
    api.on(
      "model.request",
      async (e, next) => {
        try {
          return await next();
        } catch (err) {
          const kind = (err as { kind?: unknown }).kind;
          if (typeof kind === "string" && (ERROR_CODES as readonly string[]).includes(kind)) write("error", e.sessionId, { code: kind });
          throw err;
        }
      },
      { timeoutMs: Infinity },
    );
  },
};

function on(v: JsonValue | undefined): boolean | undefined {
  if (typeof v === "boolean") return v;
  if (typeof v === "object" && v !== null && !Array.isArray(v) && typeof v.enabled === "boolean") return v.enabled;
  return undefined;
}

/** Whether telemetry runs: on only by the person's own (user) settings, off when the managed
 *  policy says false; every other layer's `true` is said and ignored. */
export function telemetrySetting(settings: SettingsView): { enabled: boolean; warnings: string[] } {
  const warnings: string[] = [];
  let enabled = false;
  let forcedOff = false;
  for (const l of settings.layers) {
    const v = on(l.settings.telemetry);
    if (v === undefined) continue;
    if (l.name === "user") enabled = v;
    else if (l.name === "managed" && v === false) forcedOff = true;
    else if (v) warnings.push(`${l.file}: telemetry is turned on only in your own settings (~/.deepcode/settings.json); ignored here`);
  }
  return { enabled: enabled && !forcedOff, warnings };
}

export default plugin;
