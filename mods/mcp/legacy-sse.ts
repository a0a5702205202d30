// The HTTP+SSE transport of MCP 2024-11-05, for servers that have not moved on: a GET opens a
// stream whose first event (`endpoint`) names where to POST; every answer and every message of
// the server then arrives on that stream. The stream ending is the connection ending.
// Each POST carries the same revision headers as the Streamable HTTP transport's (headers.ts
// postHeaders: Mcp-Method, Mcp-Name, a tool's Mcp-Param-*, MCP-Protocol-Version); the GET
// that opens the stream comes before any version is agreed and names no message, so it has none.

import type { IncomingMessage } from "node:http";
import type { JsonObject, Transport, TransportHandlers } from "./jsonrpc.js";
import { authorized, contentType, RequestSignals, statusError, type Connector, type HttpAuth } from "./http.js";
import { postHeaders } from "./headers.js";
import { SseParser } from "../../src/lib/sse.js";

export interface LegacySseOptions {
  url: string;
  headers: Record<string, string>;
  connect?: Connector;
  auth?: HttpAuth;
  /** How long to wait for the `endpoint` event. */
  timeoutMs: number;
}

export class LegacySseTransport implements Transport {
  private readonly life = new AbortController();
  private readonly signals = new RequestSignals(this.life.signal);
  private endpoint?: URL;
  private res?: IncomingMessage;
  private held = false;
  private protocolVersion?: string;

  constructor(private readonly o: LegacySseOptions) {}

  async start(h: TransportHandlers): Promise<void> {
    const url = new URL(this.o.url);
    const res = await authorized(this.o.auth, { method: "GET", url }, (auth) => this.signals.exchange({ method: "GET", url, headers: { ...this.o.headers, ...auth, accept: "text/event-stream" }, connect: this.o.connect }));
    if ((res.statusCode ?? 0) !== 200 || contentType(res) !== "text/event-stream") throw await statusError(res, "GET (SSE stream)");
    this.res = res;
    if (!this.held) res.socket?.unref();
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the server sent no endpoint event within ${Math.round(this.o.timeoutMs / 1000)} s`)), this.o.timeoutMs);
      timer.unref();
      const reader = new SseParser({ onEvent: (ev) => {
        if (ev.event === "endpoint") {
          try {
            this.endpoint = new URL(ev.data.trim(), url);
          } catch {
            return reject(new Error(`the server's endpoint event is not a URL: ${ev.data.slice(0, 120)}`));
          }
          // The POST endpoint must be the same origin: a server cannot send our messages elsewhere.
          if (this.endpoint.origin !== url.origin) return reject(new Error(`the server's endpoint ${this.endpoint.origin} is not on ${url.origin}`));
          clearTimeout(timer);
          resolve();
          return;
        }
        if ((ev.event ?? "message") !== "message") return;
        let m: unknown;
        try {
          m = JSON.parse(ev.data);
        } catch {
          // Not JSON: a garbled message (waiting calls fail now); an empty event says nothing.
          if (ev.data.trim()) h.garbled?.(ev.data);
          return;
        }
        h.message(m);
      } });
      void (async () => {
        try {
          for await (const c of res as AsyncIterable<Buffer>) reader.push(c);
          reader.end();
        } catch {
          // dropped or aborted: reported below
        }
        clearTimeout(timer);
        if (this.life.signal.aborted) return;
        if (!this.endpoint) reject(new Error("the server's SSE stream ended before its endpoint event"));
        else h.closed("the server's SSE stream ended");
      })();
    });
  }

  setProtocolVersion(v: string): void {
    this.protocolVersion = v;
  }

  async send(m: JsonObject, o?: { headers?: Record<string, string> }): Promise<void> {
    if (!this.endpoint) throw new Error("not connected");
    const endpoint = this.endpoint;
    const revision = postHeaders(m, o?.headers, this.protocolVersion);
    const res = await authorized(this.o.auth, { method: "POST", url: endpoint }, (auth) => this.signals.exchange({ method: "POST", url: endpoint, headers: { ...this.o.headers, ...auth, ...revision, "content-type": "application/json" }, body: JSON.stringify(m), connect: this.o.connect }));
    const status = res.statusCode ?? 0;
    if (status < 200 || status >= 300) throw await statusError(res, `POST ${m.method ?? "response"}`);
    res.resume(); // the answer comes on the stream
  }

  async close(): Promise<void> {
    this.life.abort();
  }

  ref(): void {
    this.held = true;
    this.res?.socket?.ref();
  }

  unref(): void {
    this.held = false;
    this.res?.socket?.unref();
  }
}
