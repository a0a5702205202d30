// Example third-party plugin: an audit log of tool calls — the permission gate's answer, what
// the person answered when asked, and what ran — one JSON line each, in
// `<deepcode home>/audit.jsonl` (or `pluginConfig["audit-log"].file`). It uses only what
// register(api) hands it — a plugin never imports deepcode — and only observes.
// What a user-tier plugin cannot see: a call a settings rule denies is answered by the gate in
// the prepend tier before user hooks run, and in -p no question is asked at all (the
// non-interactive answer is outermost); the session's transcript records both. Enable it:
//   { "plugins": ["/path/to/deepcode/dist/plugins/audit-log/index.js"] }
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
    api.on("tool.check", async (e, next) => {
      const r = await next();
      write({ session: e.sessionId, call: e.callId, tool: e.tool, input: e.input, decision: r.decision, by: r.by ?? null });
      return r;
    });
    api.on("permission.ask", async (e, next) => {
      const r = await next();
      write({ session: e.sessionId, tool: e.tool, asked: e.reason, answer: r.decision, by: r.by ?? null });
      return r;
    });
    api.on("tool.result", async (e, next) => {
      const r = await next();
      write({ session: e.sessionId, call: e.callId, tool: e.tool, error: r.isError === true, summary: r.summary ?? null });
      return r;
    });
  },
};

export default plugin;
