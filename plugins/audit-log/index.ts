// Example third-party plugin: an audit log of tool calls — every permission decision once it is
// final (allowed or denied, what the gate answered, by which rule of which layer, and who answered
// a question) and what ran — one JSON line each, in `<deepcode home>/audit.jsonl` (or
// `pluginConfig["audit-log"].file`). It uses only what register(api) hands it — a plugin never
// imports deepcode — and only observes. The decisions come from the `tool.decided` event, which
// the permission gate dispatches once per decision: a call a settings rule denies (answered in the
// prepend tier, before any user hook runs) and an ask `-p` refuses are there too. Enable it:
//   { "plugins": ["/path/to/deepcode/dist/plugins/audit-log/index.js"] }
// (in the managed policy's `plugins`, its hooks sit in the prepend tier, out of a person's reach).
import { appendFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import type { Plugin } from "../../src/contract/index.js";

const plugin: Plugin = {
  id: "audit-log",
  description: "append every tool call and its permission decision to audit.jsonl",
  register(api) {
    const configured = api.config.file;
    const file = typeof configured === "string" ? (isAbsolute(configured) ? configured : join(api.root, configured)) : join(api.home, "audit.jsonl");
    const write = (record: Record<string, unknown>): void => {
      try {
        appendFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), ...record })}\n`, { mode: 0o600 });
      } catch (err) {
        api.log.warn(`cannot write ${file}: ${(err as Error).message}`);
      }
    };
    api.on("tool.decided", async (e, next) => {
      write({ session: e.sessionId, call: e.callId, tool: e.tool, input: e.input, decision: e.decision, gate: e.gate, by: e.by ?? null, rule: e.rule ?? null, reason: e.reason ?? null, answer: e.answer ?? null });
      return next();
    });
    api.on("tool.result", async (e, next) => {
      const r = await next();
      write({ session: e.sessionId, call: e.callId, tool: e.tool, error: r.isError === true, summary: r.summary ?? null });
      return r;
    });
  },
};

export default plugin;
