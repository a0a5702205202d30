// The Streamable HTTP transport (MCP 2025-03-26 and later): every message we send is a POST
// (`Accept: application/json, text/event-stream`); the answer is JSON, or an SSE stream that
// carries the response and whatever the server sends meanwhile. After `initialized`, a GET
// opens the server's own stream (a 405 means it has none). The session id the server gives at
// initialize (`Mcp-Session-Id`) and the agreed `MCP-Protocol-Version` go on every request; a
// DELETE ends the session on close. A stream that ends before it delivered what it owed is
// resumed with a GET carrying `Last-Event-ID`, after the server's `retry:` (else 1 s).

import type { IncomingMessage } from "node:http";
import type { JsonObject, Transport, TransportHandlers } from "./jsonrpc.js";
import { authorized, contentType, exchange, readBody, RequestSignals, statusError, type Connector, type HttpAuth } from "./http.js";
import { postHeaders } from "./headers.js";
import { SseParser, type SseState } from "../../src/lib/sse.js";

export interface StreamableOptions {
  url: string;
  headers: Record<string, string>;
  connect?: Connector;
  auth?: HttpAuth;
}

const DEFAULT_RETRY_MS = 1000;
const MAX_RESUMES = 5;
/** The server's own stream, when it drops: wait at least this, at most the cap, doubling. */
const STREAM_RETRY_CAP_MS = 30_000;

export class StreamableHttpTransport implements Transport {
  private readonly url: URL;
  private sessionId?: string;
  private protocolVersion?: string;
  private h?: TransportHandlers;
  private readonly life = new AbortController();
  private readonly signals = new RequestSignals(this.life.signal);
  private held = false;
  private readonly sockets = new Set<{ ref(): void; unref(): void }>();
  private serverStream = false;

  constructor(private readonly o: StreamableOptions) {
    this.url = new URL(o.url);
  }

  async start(h: TransportHandlers): Promise<void> {
    this.h = h;
  }

  setProtocolVersion(v: string): void {
    this.protocolVersion = v;
  }

  async send(m: JsonObject, o?: { headers?: Record<string, string> }): Promise<void> {
    // SEP-2243: Mcp-Method / Mcp-Name on every POST, and the tool's Mcp-Param-* (headers.ts).
    const res = await this.request("POST", { ...postHeaders(m, o?.headers, this.protocolVersion), "content-type": "application/json", accept: "application/json, text/event-stream" }, JSON.stringify(m));
    const sid = res.headers["mcp-session-id"];
    if (typeof sid === "string" && sid && m.method === "initialize") this.sessionId = sid;
    const status = res.statusCode ?? 0;
    if (status === 202 || status === 204) {
      res.resume();
      if (m.method === "notifications/initialized") this.openServerStream();
      return;
    }
    if (status === 404 && this.sessionId) {
      res.resume();
      this.lost("the server ended the session (404)");
      throw new Error("the server ended the session");
    }
    if (status >= 400 && status < 500 && m.id !== undefined && contentType(res) === "application/json") {
      // A refusal that is a JSON-RPC error for this request (a 2026-07-28 server refusing an
      // `initialize`, say) is that request's answer: the caller sees its code.
      const text = await readBody(res, 64 * 1024).catch(() => "");
      const answer = jsonRpcError(text, m.id);
      if (answer) return this.h?.message(answer);
      throw new Error(`POST ${m.method ?? "response"}: the server answered ${status}${text.trim() ? ` (${text.trim().slice(0, 200)})` : ""}`);
    }
    if (status < 200 || status >= 300) throw await statusError(res, `POST ${m.method ?? "response"}`);
    const type = contentType(res);
    if (type === "text/event-stream") {
      const owed = typeof m.method === "string" && m.id !== undefined ? m.id : undefined;
      void this.stream(res, owed, 0);
      return;
    }
    const body = (await readBody(res)).trim();
    if (body) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        throw new Error(`the server answered ${m.method ?? "a response"} with something that is not JSON: ${body.slice(0, 120)}`);
      }
      this.h?.message(parsed);
    }
    if (m.method === "notifications/initialized") this.openServerStream();
  }

  async close(): Promise<void> {
    if (this.life.signal.aborted) return;
    this.life.abort();
    if (!this.sessionId) return;
    // Tell the server the session is over; a server that does not allow it answers 405.
    const ctl = new AbortController();
    const t = setTimeout(() => ctl.abort(), 2000);
    t.unref();
    try {
      // The session is the signed-in person's: its DELETE carries their authorization, as every
      // request does — the token as it is (an exit does not wait for a refresh).
      const auth = this.o.auth ? await this.o.auth.headers({ method: "DELETE", url: this.url }, { refresh: false }) : {};
      const res = await exchange({ method: "DELETE", url: this.url, headers: this.headers(auth), signal: ctl.signal, connect: this.o.connect });
      res.resume();
    } catch {
      // Unreachable now: the session ends on the server's side by its own timeout.
    } finally {
      clearTimeout(t);
    }
  }

  ref(): void {
    this.held = true;
    for (const s of this.sockets) s.ref();
  }

  unref(): void {
    this.held = false;
    for (const s of this.sockets) s.unref();
  }

  private headers(extra: Record<string, string>): Record<string, string> {
    const h: Record<string, string> = { ...this.o.headers, ...extra };
    if (this.sessionId) h["mcp-session-id"] = this.sessionId;
    if (this.protocolVersion) h["mcp-protocol-version"] = this.protocolVersion;
    return h;
  }

  private async request(method: "GET" | "POST", extra: Record<string, string>, body?: string): Promise<IncomingMessage> {
    return authorized(this.o.auth, { method, url: this.url }, (auth) => this.signals.exchange({ method, url: this.url, headers: this.headers({ ...auth, ...extra }), body, connect: this.o.connect }));
  }

  /** Read an SSE response. `owed`: the id of our request whose answer this stream carries; if
   *  the stream ends before it came, resume with Last-Event-ID. */
  private async stream(res: IncomingMessage, owed: Json | undefined, resumes: number, retryBefore?: number): Promise<void> {
    let answered = owed === undefined;
    const state = await this.read(res, (m) => {
      if (owed !== undefined && isResponseTo(m, owed)) answered = true;
      this.h?.message(m);
      if (answered && owed !== undefined && resumes > 0) res.destroy(); // a resumed stream owed only this
    }, retryBefore);
    const reader = { state };
    if (answered || this.life.signal.aborted) return;
    if (resumes >= MAX_RESUMES || reader.state.lastEventId === undefined) {
      this.h?.message({ jsonrpc: "2.0", id: owed as string | number, error: { code: -32000, message: "the server's stream ended before it answered" } });
      return;
    }
    // An answer is owed (the connection holds the process open): so does this wait.
    await delay(reader.state.retryMs ?? DEFAULT_RETRY_MS, this.life.signal, true);
    if (this.life.signal.aborted) return;
    try {
      const next = await this.request("GET", { accept: "text/event-stream", "last-event-id": reader.state.lastEventId });
      if ((next.statusCode ?? 0) !== 200 || contentType(next) !== "text/event-stream") {
        next.resume();
        throw new Error(`resuming answered ${next.statusCode}`);
      }
      return this.stream(next, owed, resumes + 1, reader.state.retryMs);
    } catch (err) {
      this.h?.message({ jsonrpc: "2.0", id: owed as string | number, error: { code: -32000, message: `the server's stream ended before it answered, and resuming it failed (${(err as Error).message})` } });
    }
  }

  /** The server's own stream (requests and notifications it sends unasked), kept open:
   *  reopened after it ends, with Last-Event-ID, after its retry (doubling while it fails). */
  private openServerStream(): void {
    if (this.serverStream) return;
    this.serverStream = true;
    void (async () => {
      let lastEventId: string | undefined;
      let retryMs: number | undefined;
      let wait = DEFAULT_RETRY_MS;
      while (!this.life.signal.aborted) {
        let res: IncomingMessage;
        try {
          res = await this.request("GET", { accept: "text/event-stream", ...(lastEventId ? { "last-event-id": lastEventId } : {}) });
        } catch {
          if (this.life.signal.aborted) return;
          await delay(wait, this.life.signal);
          wait = Math.min(wait * 2, STREAM_RETRY_CAP_MS);
          continue;
        }
        const status = res.statusCode ?? 0;
        if (status === 405 || status === 404 || status === 400) {
          res.resume();
          if (status === 404 && this.sessionId && lastEventId !== undefined) this.lost("the server ended the session (404)");
          return; // no stream of its own: everything comes on the POST answers
        }
        if (status !== 200 || contentType(res) !== "text/event-stream") {
          res.resume();
          await delay(wait, this.life.signal);
          wait = Math.min(wait * 2, STREAM_RETRY_CAP_MS);
          continue;
        }
        wait = DEFAULT_RETRY_MS;
        const reader = { state: await this.read(res, (m) => this.h?.message(m)) };
        lastEventId = reader.state.lastEventId ?? lastEventId;
        retryMs = reader.state.retryMs ?? retryMs;
        await delay(retryMs ?? wait, this.life.signal);
      }
    })();
  }

  /** Read an SSE stream to its end (or until it breaks): each JSON message to `message`;
   *  the stream's last event id and retry come back, for reopening it. */
  private async read(res: IncomingMessage, message: (m: unknown) => void, retryBefore?: number): Promise<SseState> {
    const reader = new SseParser({ onEvent: (ev) => {
      if ((ev.event ?? "message") !== "message") return;
      let m: unknown;
      try {
        m = JSON.parse(ev.data);
      } catch {
        // Not JSON: a garbled message (waiting calls fail now); MCP's priming event is empty.
        if (ev.data.trim()) this.h?.garbled?.(ev.data);
        return;
      }
      message(m);
    } });
    if (retryBefore !== undefined) reader.state.retryMs = retryBefore;
    this.track(res);
    try {
      for await (const c of res as AsyncIterable<Buffer>) reader.push(c);
      reader.end();
    } catch {
      // The stream broke (or we ended it): the caller decides whether to reopen it.
    } finally {
      this.untrack(res);
    }
    return reader.state;
  }

  private lost(why: string): void {
    if (this.life.signal.aborted) return;
    this.life.abort();
    this.h?.closed(why);
  }

  private track(res: IncomingMessage): void {
    const s = res.socket;
    if (!s) return;
    this.sockets.add(s);
    if (!this.held) s.unref();
  }

  private untrack(res: IncomingMessage): void {
    if (res.socket) this.sockets.delete(res.socket);
  }
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function isResponseTo(m: unknown, id: Json): boolean {
  if (Array.isArray(m)) return m.some((x) => isResponseTo(x, id));
  return typeof m === "object" && m !== null && (m as { id?: unknown }).id === id && !("method" in m);
}

/** Wait, unless the transport ends first. Only a wait someone is owed an answer after keeps
 *  the process alive. */
function delay(ms: number, signal: AbortSignal, keep = false): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    if (!keep) t.unref();
    function done(): void {
      signal.removeEventListener("abort", done);
      clearTimeout(t);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

function jsonRpcError(text: string, id: unknown): JsonObject | undefined {
  try {
    const v = JSON.parse(text) as unknown;
    if (typeof v === "object" && v !== null && !Array.isArray(v) && (v as JsonObject).id === id && typeof (v as JsonObject).error === "object") return v as JsonObject;
  } catch {
    // not JSON: the caller reports the status with the text
  }
  return undefined;
}
