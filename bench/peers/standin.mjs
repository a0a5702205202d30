// The stand-in every agent of a run talks to: one DeepSeek simulator (test/sim/server.mjs — the
// OpenAI chat-completions SSE endpoint and the Anthropic messages endpoint at /anthropic, real
// DeepSeek V3 token counts, one prefix cache in 64-token units keyed on the request's rendered
// content), shared by every agent and process of the run, so hit rates are comparable. Agents run
// one after another; `slice()` cuts the request log at agent boundaries.
//
// Beside it, a trap for phoning home: every agent gets HTTP(S)_PROXY pointed at a loopback
// listener that refuses and records each request or CONNECT (NO_PROXY lets the stand-in
// through), so an update check or telemetry ping that honours the proxy shows up in the report.
import { createHash } from "node:crypto";
import http from "node:http";
import { toChatRequest } from "../../test/sim/anthropic.mjs";
import { startSimulator } from "../../test/sim/server.mjs";

/** The request as the chat template sees it (Anthropic bodies translated), or null. */
export function chatOf(record) {
  if (record.path.replace(/\/+$/, "") === "/anthropic/v1/messages") {
    const t = toChatRequest(record.json);
    return "json" in t ? t.json : null;
  }
  return record.json;
}

/** One key per distinct chat request: how a reply decided in `respond` finds its billed record. */
export function fingerprint(chat) {
  return createHash("sha1").update(String(chat.model)).update("\u0000").update(JSON.stringify(chat.messages)).update("\u0000").update(JSON.stringify(chat.tools ?? null)).digest("hex");
}

/**
 * Starts the stand-in. `respond(chat)` answers each valid chat request and returns
 * `{ reply, info }`; `info` is kept with the billed record (what the scripted model decided).
 */
export async function startStandin(respond) {
  /** fingerprint → infos in arrival order (identical requests can arrive twice). */
  const decided = new Map();
  // textParts: pi sends its prompts as arrays of text parts, which DeepSeek's API refuses (the
  // simulator too, by default). The benchmark measures what each agent's requests cost, so the
  // stand-in accepts them; they render, and are cached, as the joined text.
  const sim = await startSimulator({
    textParts: true,
    script: {
      respond(chat) {
        const { reply, info } = respond(chat);
        const key = fingerprint(chat);
        if (!decided.has(key)) decided.set(key, []);
        decided.get(key).push(info);
        return reply;
      },
    },
  });
  const trapped = [];
  const trap = http.createServer((req, res) => {
    req.socket.on("error", () => {}); // as for CONNECT below
    trapped.push({ at: Date.now(), what: `${req.method} ${req.url}` });
    res.writeHead(403);
    res.end();
  });
  trap.on("connect", (req, socket) => {
    socket.on("error", () => {}); // the client hanging up on a refusal is not news
    trapped.push({ at: Date.now(), what: `CONNECT ${req.url}` });
    socket.end("HTTP/1.1 403 Forbidden\r\n\r\n");
  });
  await new Promise((resolve) => trap.listen(0, "127.0.0.1", resolve));
  const proxy = `http://127.0.0.1:${trap.address().port}`;
  let cut = 0;
  let trapCut = 0;
  return {
    url: sim.url,
    proxy,
    /** Every request since the last slice: billed ones with the model's info, and the refused. */
    slice() {
      const records = sim.requests.slice(cut);
      cut = sim.requests.length;
      const phoned = trapped.slice(trapCut).map((t) => t.what);
      trapCut = trapped.length;
      const billed = [];
      const refused = [];
      for (const r of records) {
        if (!r.usage) {
          refused.push({ method: r.method, path: r.path, status: r.status, body: r.body });
          continue;
        }
        const chat = chatOf(r);
        const infos = decided.get(fingerprint(chat)) ?? [];
        billed.push({ record: r, chat, usage: r.usage, info: infos.shift() ?? { kind: "unknown" } });
      }
      return { billed, refused, phoned };
    },
    async close() {
      await sim.close();
      await new Promise((resolve) => trap.close(resolve));
    },
  };
}
