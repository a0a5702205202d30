// @ts-check
// The DeepSeek API simulator: an HTTP(S) server on 127.0.0.1 that speaks DeepSeek's wire format
// (Chat Completions at /chat/completions and /v1/chat/completions, the Anthropic Messages
// protocol at /anthropic/v1/messages, GET /models, GET /user/balance), answers from a script,
// bills every request over the real tokenizer with a prefix cache, and records every request.
// Test code: never shipped. The exported API is relied on by the provider tests and the
// benchmarks; types are in server.d.mts.
import http from "node:http";
import https from "node:https";
import { randomUUID } from "node:crypto";
import { anthropicErrorBody, MALFORMED_EVENT, messageBody, messageEvents, toChatRequest } from "./anthropic.mjs";
import { bill } from "./billing.mjs";
import { createPrefixCache } from "./cache.mjs";
import { chunkEvents, completionBody, errorBody, malformedChunk, rawChunkEvents } from "./openai.mjs";
import { createCursor, normalizeReply, randomId, replyFromChunks } from "./script.mjs";
import { keepAlives, sendBody, sendEvents } from "./send.mjs";
import { warmTokenizer } from "./tokens.mjs";
import { LISTED_MODELS, thinkingOn, validateChatRequest } from "./validate.mjs";

export { countTokens, tokenize } from "./tokens.mjs";
export { renderRequest } from "./render.mjs";
export { createPrefixCache } from "./cache.mjs";
export { dsml, jsonToolCallText } from "./dsml.mjs";

/**
 * @typedef {import("./server.mjs").SimRequest} SimRequest
 * @typedef {import("./server.mjs").ScriptEntry} ScriptEntry
 * @typedef {"openai" | "anthropic"} Protocol
 * @typedef {{
 *   req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse, record: SimRequest,
 *   protocol: Protocol, chat: any, model: string,
 *   error: (status: number, message?: string, headers?: Record<string, string>) => void,
 * }} Ctx
 */

/**
 * A key as DeepSeek shows it in an auth error: the last four characters only (fewer for a
 * short key), never the whole key.
 * @param {string} key
 */
function masked(key) {
  return `****${key.slice(-Math.min(4, Math.floor(key.length / 2)))}`;
}

/**
 * Starts a simulator.
 * @param {import("./server.mjs").SimulatorOptions} [options]
 * @returns {Promise<import("./server.mjs").Simulator>}
 */
export async function startSimulator(options = {}) {
  warmTokenizer();
  let cursor = createCursor(options.script ?? {});
  const cache = createPrefixCache();
  /** @type {SimRequest[]} */
  const requests = [];
  const totals = { requests: 0, promptTokens: 0, hitTokens: 0, missTokens: 0, completionTokens: 0 };

  /**
   * @param {import("node:http").IncomingMessage} req
   * @param {import("node:http").ServerResponse} res
   */
  async function handle(req, res) {
    /** @type {Buffer[]} */
    const parts = [];
    for await (const part of req) parts.push(part);
    const body = Buffer.concat(parts).toString("utf8");
    const path = (req.url ?? "/").split("?")[0];
    /** @type {unknown} */
    let parsed;
    /** @type {SimRequest} */
    const record = {
      method: req.method ?? "GET",
      path,
      headers: req.headers,
      body,
      // Parsed on first read: a benchmark keeps hundreds of large bodies, once is enough.
      get json() {
        if (parsed === undefined) parsed = parseJson(body);
        return /** @type {any} */ (parsed);
      },
      usage: null,
      status: 0,
    };
    requests.push(record);
    try {
      await route(req, res, record);
    } finally {
      options.onRequest?.(record);
    }
  }

  /**
   * @param {import("node:http").IncomingMessage} req
   * @param {import("node:http").ServerResponse} res
   * @param {SimRequest} record
   */
  async function route(req, res, record) {
    const path = record.path.replace(/\/+$/, "");
    const anthropic = path === "/anthropic/v1/messages";
    /** @type {Protocol} */
    const protocol = anthropic ? "anthropic" : "openai";
    const open = anthropic ? path : path.replace(/^\/v1(?=\/)/, "");
    /** @param {number} status @param {string} [message] @param {Record<string, string>} [headers] */
    const error = (status, message, headers = {}) => {
      record.status = status;
      const text = protocol === "anthropic" ? anthropicErrorBody(status, message ?? errorMessage(status)) : errorBody(status, message);
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(text);
    };
    const known = req.method === "POST" ? open === "/chat/completions" || anthropic : req.method === "GET" && (open === "/models" || open === "/user/balance");
    if (!known) return error(404, `Not Found: ${req.method} ${record.path}`);
    const denied = authFailure(req, protocol);
    if (denied) return error(401, denied);
    if (open === "/models") {
      return json(res, record, { object: "list", data: LISTED_MODELS.map((id) => ({ id, object: "model", owned_by: "deepseek" })) });
    }
    if (open === "/user/balance") {
      return json(res, record, {
        is_available: true,
        balance_infos: [{ currency: "USD", total_balance: "100.00", granted_balance: "0.00", topped_up_balance: "100.00" }],
      });
    }
    // Parsed apart from record.json, which stays unparsed (and small) until a test reads it.
    const body = parseJson(record.body);
    if (body === null) return error(400, "Failed to parse the request body as JSON: expected value at line 1 column 1");
    let chat = body;
    if (anthropic) {
      const t = toChatRequest(body);
      if ("error" in t) return error(400, t.error);
      chat = t.json;
    }
    const invalid = validateChatRequest(chat, { textParts: options.textParts === true });
    if (invalid) return error(invalid.status, invalid.message);
    const ctx = { req, res, record, protocol, chat, model: String(body.model), error };
    await answer(ctx, await cursor.next(chat));
  }

  /**
   * Answers a valid chat request with a script entry. `ctx.chat` is the request in OpenAI
   * shape; `ctx.model` the model name as the client sent it (replies echo it).
   * @param {Ctx} ctx
   * @param {ScriptEntry} entry
   * @returns {Promise<void>}
   */
  async function answer(ctx, entry) {
    const { req, res, record, protocol, chat, error } = ctx;
    const fault = entry.fault ?? {};
    const stream = chat.stream === true;
    if (fault.status !== undefined && !res.headersSent) {
      const headers = fault.retryAfter !== undefined ? { "retry-after": String(fault.retryAfter) } : undefined;
      return error(fault.status, fault.message, headers);
    }
    if (fault.resetBeforeResponse) {
      req.socket.destroy();
      return;
    }
    if (!res.headersSent && (stream || fault.keepAliveOnlyMs !== undefined)) {
      res.writeHead(200, stream
        ? { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", connection: "keep-alive" }
        : { "content-type": "application/json" });
      res.flushHeaders();
      record.status = 200;
    }
    const keepAlive = !stream ? "\n" : protocol === "anthropic" ? 'event: ping\ndata: {"type":"ping"}\n\n' : ": keep-alive\n\n";
    if (fault.keepAliveOnlyMs !== undefined) {
      if (!(await keepAlives(res, keepAlive, fault.keepAliveOnlyMs, fault.keepAliveEveryMs ?? 50))) return;
      // The queue gave up (the real API closes after 10 minutes without inference) ...
      if (fault.thenClose) return void res.end();
      // ... or inference starts: the next entry of the script answers this same request.
      return answer(ctx, await cursor.next(chat));
    }
    if (fault.status !== undefined) {
      // A status fault after keep-alives: the status line is gone, the error rides in the body
      // (an `error` event on the Anthropic side, a `data:` error object on the OpenAI side).
      const message = fault.message ?? errorMessage(fault.status);
      if (protocol === "anthropic") res.end(`event: error\ndata: ${anthropicErrorBody(fault.status, message)}\n\n`);
      else res.end(stream ? `data: ${errorBody(fault.status, message)}\n\n` : errorBody(fault.status, message));
      return;
    }

    if (entry.chunks && protocol !== "openai") return error(500, "simulator: raw chunks replay on the OpenAI protocol only");
    const reply = entry.chunks
      ? replyFromChunks(entry.chunks, thinkingOn(chat))
      : normalizeReply(entry, { thinking: thinkingOn(chat), idPrefix: protocol === "anthropic" ? "toolu_" : undefined });
    const billed = bill(cache, chat, reply);
    const breaks = fault.dropAfterChunks !== undefined || fault.stallAfterChunks !== undefined;
    if (breaks) billed.persistInput();
    else billed.persistAll();
    record.usage = billed.usage;
    record.status = 200;
    totals.requests++;
    totals.promptTokens += billed.usage.prompt_tokens;
    totals.hitTokens += billed.usage.prompt_cache_hit_tokens;
    totals.missTokens += billed.usage.prompt_cache_miss_tokens;
    totals.completionTokens += billed.usage.completion_tokens;

    const model = ctx.model;
    const id = protocol === "anthropic" ? `msg_${randomId(24)}` : randomUUID();
    const created = Math.floor(Date.now() / 1000);
    if (!stream) {
      const text = protocol === "anthropic"
        ? messageBody(reply, { id, model, usage: billed.usage })
        : completionBody(reply, { id, created, model, thinking: reply.reasoning !== null, usage: billed.usage });
      await sendBody(res, text, { keepAliveMs: reply.keepAliveMs, keepAliveEveryMs: reply.keepAliveEveryMs, fault });
      return;
    }
    if (reply.keepAliveMs > 0 && !(await keepAlives(res, keepAlive, reply.keepAliveMs, reply.keepAliveEveryMs))) return;
    const meta = { id, created, model, thinking: thinkingOn(chat), usage: billed.usage };
    const events = protocol === "anthropic"
      ? messageEvents(reply, { id, model, usage: billed.usage })
      : entry.chunks ? rawChunkEvents(entry.chunks, meta) : chunkEvents(reply, meta);
    const malformed = protocol === "anthropic" ? MALFORMED_EVENT : malformedChunk(meta);
    await sendEvents(res, events, { chunkDelayMs: reply.chunkDelayMs, fault, malformed });
  }

  /**
   * Why a request is refused for its key, or null. With no `apiKey` configured, any key (or
   * none) is accepted. OpenAI side: `Authorization: Bearer <key>`; Anthropic side: `x-api-key`
   * (a Bearer header is accepted there too).
   * @param {import("node:http").IncomingMessage} req
   * @param {Protocol} protocol
   * @returns {string | null}
   */
  function authFailure(req, protocol) {
    if (options.apiKey === undefined) return null;
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "");
    const headerKey = req.headers["x-api-key"];
    const key = protocol === "anthropic" && typeof headerKey === "string" ? headerKey : bearer?.[1];
    if (key === undefined) {
      return protocol === "anthropic" ? "Authentication Fails (no such user)" : "Authentication Fails (auth header format should be Bearer sk-...)";
    }
    return key === options.apiKey ? null : `Authentication Fails, Your api key: ${masked(key)} is invalid`;
  }

  const onRequest = (/** @type {import("node:http").IncomingMessage} */ req, /** @type {import("node:http").ServerResponse} */ res) => {
    handle(req, res).catch((err) => {
      // A bug in the simulator: answer 500 so the test fails loudly instead of hanging.
      if (!res.headersSent) {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(errorBody(500, `simulator error: ${err instanceof Error ? err.stack : String(err)}`));
      } else res.destroy();
    });
  };
  const server = options.tls ? https.createServer({ key: options.tls.key, cert: options.tls.cert }, onRequest) : http.createServer(onRequest);
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve(undefined));
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;

  return {
    url: `${options.tls ? "https" : "http"}://127.0.0.1:${port}`,
    port,
    requests,
    setScript(script) {
      cursor = createCursor(script);
    },
    resetCache() {
      cache.clear();
    },
    stats() {
      return { ...totals };
    },
    close() {
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** @param {number} status */
function errorMessage(status) {
  return JSON.parse(errorBody(status)).error.message;
}

/** @param {string} text */
function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null; // not JSON: the record says so with null, the route answers 400
  }
}

/**
 * @param {import("node:http").ServerResponse} res
 * @param {SimRequest} record
 * @param {unknown} value
 */
function json(res, record, value) {
  const text = JSON.stringify(value);
  record.status = 200;
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}
