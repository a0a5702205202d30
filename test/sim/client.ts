// A plain node:http client for the simulator's own tests: it sees exactly what a provider would
// (status, headers, raw bytes, how the connection ended), with no parsing of its own in the way.
import http from "node:http";

export interface Outcome {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Every byte of the body that arrived. */
  raw: string;
  /** How the exchange failed, when it did: "reset" before a response, "aborted" mid-body. */
  error?: "reset" | "aborted";
  /** True when nothing arrived for `idleMs` and the client gave up. */
  idle?: boolean;
}

export interface CallOptions {
  method?: string;
  headers?: Record<string, string>;
  /** Give up after this long without a byte (default 5 s). */
  idleMs?: number;
}

/** Sends one request; resolves with what happened (never rejects). */
export function call(url: string, body: unknown, options: CallOptions = {}): Promise<Outcome> {
  const text = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
  return new Promise((resolve) => {
    let raw = "";
    let status = 0;
    let headers: http.IncomingHttpHeaders = {};
    let settled = false;
    const done = (extra: Partial<Outcome> = {}) => {
      if (settled) return;
      settled = true;
      resolve({ status, headers, raw, ...extra });
    };
    const req = http.request(url, {
      method: options.method ?? (text === undefined ? "GET" : "POST"),
      headers: { "content-type": "application/json", ...options.headers },
    });
    req.setTimeout(options.idleMs ?? 5000, () => {
      done({ idle: true });
      req.destroy();
    });
    req.on("error", () => done(status ? { error: "aborted" } : { error: "reset" }));
    req.on("response", (res) => {
      status = res.statusCode ?? 0;
      headers = res.headers;
      res.setEncoding("utf8");
      res.on("data", (d: string) => (raw += d));
      res.on("aborted", () => done({ error: "aborted" }));
      res.on("error", () => done({ error: "aborted" }));
      res.on("end", () => done());
    });
    req.end(text);
  });
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

export interface SseEvent {
  event?: string;
  data: string;
}

/** Splits an SSE body into its events and comments (keep-alives are comments). */
export function parseSse(raw: string): { events: SseEvent[]; comments: string[]; order: ("event" | "comment")[] } {
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const order: ("event" | "comment")[] = [];
  for (const block of raw.split("\n\n")) {
    if (!block) continue;
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) {
        comments.push(line);
        order.push("comment");
      } else if (line.startsWith("event: ")) event = line.slice(7);
      else if (line.startsWith("data: ")) data.push(line.slice(6));
    }
    if (data.length > 0) {
      events.push(event === undefined ? { data: data.join("\n") } : { event, data: data.join("\n") });
      order.push("event");
    }
  }
  return { events, comments, order };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- chunks are checked field by field in the tests
export type Chunk = any;

/** The JSON chunks of an OpenAI-style stream (everything but `[DONE]`). */
export function chunksOf(raw: string): Chunk[] {
  return parseSse(raw).events.filter((e) => e.data !== "[DONE]").map((e) => JSON.parse(e.data));
}

/** Reassembles a Chat Completions stream the way a client would. */
export function assemble(chunks: Chunk[]) {
  let content = "";
  let reasoning = "";
  const calls: { id: string; name: string; arguments: string }[] = [];
  for (const c of chunks) {
    const d = c.choices[0].delta;
    if (typeof d.content === "string") content += d.content;
    if (typeof d.reasoning_content === "string") reasoning += d.reasoning_content;
    for (const tc of d.tool_calls ?? []) {
      if (tc.id) calls[tc.index] = { id: tc.id, name: tc.function.name, arguments: "" };
      calls[tc.index].arguments += tc.function.arguments;
    }
  }
  const last = chunks[chunks.length - 1];
  return { content, reasoning, calls, finish: last?.choices[0].finish_reason, usage: last?.usage };
}
