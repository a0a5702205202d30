// Small raw servers and fakes for the provider tests: byte-level control where the simulator
// would hide what is being tested (SSE framing, resets, silences).

import { expect } from "vitest";
import { createServer } from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { ProviderError, type ChatRequest, type ModelDelta } from "../../src/contract/index.js";
import { createProvider } from "../../src/providers/index.js";
import type { Provider, ProviderOptions } from "../../src/providers/index.js";

export const KEY = "sk-test-0123456789abcdef";

export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export interface RawServer {
  url: string;
  received: Received[];
  /** Sockets the server accepted, and how many of them have closed. */
  sockets: Socket[];
  closedSockets(): number;
  close(): Promise<void>;
}

export type Handler = (req: Received, res: ServerResponse, n: number) => void | Promise<void>;

/** An HTTP server on 127.0.0.1 that hands each request (body read) to `handler`; `n` counts from 0. */
export async function rawServer(handler: Handler): Promise<RawServer> {
  const received: Received[] = [];
  const sockets: Socket[] = [];
  let closed = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const r = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
      received.push(r);
      void handler(r, res, received.length - 1);
    });
  });
  server.on("connection", (s: Socket) => {
    sockets.push(s);
    s.setNoDelay(true);
    s.on("close", () => closed++);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    sockets,
    closedSockets: () => closed,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export const sse = (obj: unknown): string => `data: ${JSON.stringify(obj)}\n\n`;

/** An OpenAI-protocol chunk with one delta. */
export function chunk(delta: Record<string, unknown>, finish: string | null = null, usage?: Record<string, unknown>): string {
  const c: Record<string, unknown> = {
    id: "chatcmpl-1",
    object: "chat.completion.chunk",
    model: "deepseek-flash",
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
  if (usage) c.usage = usage;
  return sse(c);
}

export const WIRE_USAGE = {
  prompt_tokens: 100,
  completion_tokens: 20,
  total_tokens: 120,
  prompt_cache_hit_tokens: 64,
  prompt_cache_miss_tokens: 36,
  prompt_tokens_details: { cached_tokens: 64 },
  completion_tokens_details: { reasoning_tokens: 7 },
};

export function startStream(res: ServerResponse): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  res.flushHeaders();
}

export const tick = (ms = 5): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A sleep that records the delays asked for and returns at once. */
export function fakeSleep(): { sleep: NonNullable<ProviderOptions["sleep"]>; delays: number[] } {
  const delays: number[] = [];
  return { delays, sleep: async (ms) => void delays.push(ms) };
}

export function provider(url: string, extra: Partial<ProviderOptions> = {}): Provider {
  return createProvider({ baseUrl: url, apiKey: KEY, keySource: "DEEPSEEK_API_KEY", env: {}, sleep: fakeSleep().sleep, ...extra });
}

export function collector(): { onDelta: (d: ModelDelta) => void; deltas: ModelDelta[] } {
  const deltas: ModelDelta[] = [];
  return { deltas, onDelta: (d) => deltas.push(d) };
}

export function ask(text = "hi", extra: Partial<ChatRequest> = {}): ChatRequest {
  return { model: "deepseek-flash", messages: [{ role: "user", content: text }], ...extra };
}

/** A JSON error body in the OpenAI shape. */
export function errorBody(message: string, type = "invalid_request_error"): string {
  return JSON.stringify({ error: { message, type, param: null, code: null } });
}

/** The ProviderError a promise rejects with (and that it does reject with one). */
export async function rejection(p: Promise<unknown>): Promise<ProviderError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProviderError);
  return err as ProviderError;
}
