// Built-in mod: the team's spend and decisions in their own observability stack, through
// OpenTelemetry (Claude Code's monitoring, ported: its variables, its metric and event shapes
// with `deepcode.` for `claude_code.`). Off unless the managed policy's `env` turns it on
// (config.ts says who may set what). A separate mod from `telemetry`, whose contract is the
// opposite (the person's own choice, a local file, never sent).
//
// What is exported (see README "For administrators"): counters — sessions, model requests,
// tokens by type, cost, cache savings, estimate and actual of estimated turns, tool decisions by
// outcome and deciding layer, errors by kind — and events (log records) — user_prompt (its
// length; its text only with OTEL_LOG_USER_PROMPTS=1), api_request, api_error, tool_decision,
// tool_result, turn_complete. Labels: model, tier, agent.type, skill.name, mcp_server.name,
// project (a hash of its path unless DEEPCODE_OTEL_PROJECT_NAMES=1), session.id. Every label is
// an enumeration, a number, or a name deepcode knows (registered tools, known models, tiers,
// agent and skill names of a plain grammar); anything else is `other`. Never sent: prompts
// (unless enabled), replies, tool inputs and outputs, paths, commands, rule texts, secrets.
//
// Placement: prepend, right after telemetry, so a call the gate denies outright is still seen.
// Decisions come from the permission gate's `tool.decided` (one per call, once final).

import { createHash, randomUUID } from "node:crypto";
import { basename } from "node:path";
import { ERROR_CODES, type Plugin } from "../../src/contract/index.js";
import { knownTools } from "../../src/lib/known-tools.js";
import { otelConfig } from "./config.js";
import { Exporter } from "./send.js";
import { Store, type Attrs } from "./store.js";

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;
const LAYERS = new Set(["managed", "user", "project", "local", "flag", "session", "cli"]);

interface SessionState {
  skill?: string;
  turnCost: number;
  estimate?: { tier: string; mid: number }[];
  tier?: string;
}

const plugin: Plugin = {
  id: "otel",
  description: "OpenTelemetry export of spend and decisions, rolled out only by the managed policy",
  placement: { tier: "prepend", after: ["telemetry"], before: ["permission-gate", "cost"] },
  register(api) {
    const { config, warnings } = otelConfig(api.settings);
    warnings.forEach((w) => api.log.warn(w));
    if (!config) return;
    const store = new Store();
    const project = config.projectNames ? basename(api.root) : createHash("sha256").update(api.root).digest("hex").slice(0, 16);
    const resource: Attrs = { ...config.resource, "service.name": "deepcode", "service.version": api.host.version, "service.instance.id": randomUUID() };
    const exporter = new Exporter(config, store, () => ({ resource, scope: { name: "deepcode", version: api.host.version } }), (m) => api.log.warn(m));
    exporter.start();

    const models = new Set(api.host.models);
    const tiers = new Set(Object.keys(api.host.tiers));
    const tools = knownTools(api);
    const sessions = new Map<string, SessionState>();
    const state = (id: string): SessionState => sessions.get(id) ?? (sessions.set(id, { turnCost: 0 }).get(id) as SessionState);
    const model = (m: string): string => (models.has(m) ? m : "other");
    const tool = (t: string): string => (tools.has(t) ? t : "other");
    const name = (n: string | undefined): string | undefined => (n !== undefined && NAME.test(n) ? n : n === undefined ? undefined : "other");
    const base = (sessionId: string): Attrs => ({ "session.id": sessionId, project });
    const toolAttrs = (t: string): Attrs => {
      const mcp = /^mcp__([^_].*?)__/.exec(t)?.[1];
      return { tool_name: tool(t), ...(mcp && tools.has(t) ? { "mcp_server.name": name(mcp) ?? "other" } : {}) };
    };

    /** One decision, counted and sent as an event. */
    const decided = (sessionId: string, t: string, decision: string, source: string): void => {
      const attrs = { ...toolAttrs(t), decision, source };
      store.add("deepcode.tool.decision", 1, { ...attrs, project });
      store.event("tool_decision", { ...base(sessionId), ...attrs });
    };

    api.on("session.start", async (_e, next) => {
      await next();
      store.add("deepcode.session.count", 1, { project });
    });
    api.on("session.end", async (e, next) => {
      await next();
      sessions.delete(e.sessionId);
      await exporter.flushNow();
    }, { timeoutMs: Infinity });
    api.on("turn.start", async (e, next) => {
      const s = state(e.sessionId);
      s.turnCost = 0;
      s.skill = undefined;
      store.event("user_prompt", { ...base(e.sessionId), prompt_length: e.prompt.length, ...(config.logPrompts ? { prompt: e.prompt } : {}) });
      return next();
    });
    api.on("cost.estimate", async (e, next) => {
      const r = await next();
      state(e.sessionId).estimate = r.map((x) => ({ tier: x.tier, mid: (x.lowUsd + x.highUsd) / 2 }));
      return r;
    });
    api.on("model.usage", async (e, next) => {
      const r = await next();
      const root = e.agent?.rootSessionId ?? e.sessionId;
      const s = state(root);
      const attrs: Attrs = {
        model: model(e.model),
        ...(e.tier && tiers.has(e.tier) ? { tier: e.tier } : {}),
        "agent.type": e.agent ? (name(e.agent.name) ?? "other") : "main",
        ...(s.skill ? { "skill.name": s.skill } : {}),
        project,
      };
      const u = e.usage;
      store.add("deepcode.api_request.count", 1, attrs);
      store.add("deepcode.token.usage", u.prompt_cache_miss_tokens, { ...attrs, type: "input" });
      store.add("deepcode.token.usage", u.prompt_cache_hit_tokens, { ...attrs, type: "cacheRead" });
      store.add("deepcode.token.usage", u.completion_tokens, { ...attrs, type: "output" });
      if (r) {
        store.add("deepcode.cost.usage", r.costUsd, attrs);
        store.add("deepcode.cache.savings", r.savingUsd ?? 0, attrs);
        s.turnCost += r.costUsd;
      }
      if (e.tier && tiers.has(e.tier)) s.tier = e.tier;
      store.event("api_request", {
        ...base(root), ...attrs, cost_usd: r?.costUsd ?? 0, saving_usd: r?.savingUsd ?? 0,
        input_tokens: u.prompt_cache_miss_tokens, cache_read_tokens: u.prompt_cache_hit_tokens, output_tokens: u.completion_tokens,
        reasoning_tokens: u.reasoning_tokens, estimated: e.estimated === true,
      });
      return r;
    });
    api.on("turn.complete", async (e, next) => {
      const r = await next();
      if (e.agent) return r;
      const s = state(e.sessionId);
      const est = s.estimate?.find((x) => x.tier === s.tier) ?? (s.estimate?.length === 1 ? s.estimate[0] : undefined);
      if (est) {
        store.add("deepcode.estimate.usage", est.mid, { project });
        store.add("deepcode.estimate.actual", s.turnCost, { project });
      }
      store.event("turn_complete", { ...base(e.sessionId), turn: e.turn, stop: e.stopReason, cost_usd: s.turnCost, ...(est ? { estimate_usd: est.mid } : {}) });
      s.estimate = undefined;
      return r;
    });
    // One final decision per call (the permission gate's `tool.decided`): what the gate answered
    // and the layer that decided; for a question, who answered it too.
    api.on("tool.decided", async (e, next) => {
      await next();
      const layer = e.rule && LAYERS.has(e.rule.layer) ? e.rule.layer : sourceOf(e.by);
      decided(e.sessionId, e.tool, e.gate, layer);
      if (e.answer) decided(e.sessionId, e.tool, e.answer.decision === "allow" ? "accept" : "reject", api.host.interactive ? "person" : "no_one");
    });
    api.on("tool.result", async (e, next) => {
      const r = await next();
      const rootSkill = e.tool === "Skill" && !r.isError && typeof e.input.skill === "string" ? name(e.input.skill) : undefined;
      if (rootSkill) state(e.sessionId).skill = rootSkill;
      store.event("tool_result", { ...base(e.sessionId), ...toolAttrs(e.tool), success: !r.isError, ...(rootSkill ? { "skill.name": rootSkill } : {}) });
      return r;
    });
    api.on("model.request", async (e, next) => {
      try {
        return await next();
      } catch (err) {
        const kind = (err as { kind?: unknown }).kind;
        const code = typeof kind === "string" && (ERROR_CODES as readonly string[]).includes(kind) ? kind : "other";
        const m = model(e.request.model);
        store.add("deepcode.error.count", 1, { error: code, model: m, project });
        store.event("api_error", { ...base(e.sessionId), error: code, model: m });
        throw err;
      }
    }, { timeoutMs: Infinity });
  },
};

/** The deciding layer of a gate decision: a rule's layer (`Read(.env) (managed)` → managed), or
 *  deepcode's own deciders by their plain names (`secrets`, `path fence`, `default`); never a
 *  rule's text, which may name a path. */
export function sourceOf(by: string | undefined): string {
  if (!by) return "default";
  const layer = /\(([a-z]+)\)$/.exec(by)?.[1];
  if (layer && LAYERS.has(layer)) return layer;
  const plain = by.split(":")[0];
  return /^[a-z][a-z -]{0,30}$/.test(plain) ? plain : "other";
}

export default plugin;
