// JSON-RPC 2.0 over newline-delimited JSON (the Agent Client Protocol's stdio transport), on
// node:readline. Requests from the client go to `handle`; notifications too (no reply); our own
// requests to the client (session/request_permission) wait for the reply with the same id.

import { createInterface } from "node:readline";

/** A JSON-RPC error with its code: the reply carries it to the client as it is. */
export class RpcError extends Error {
  constructor(readonly code: number, message: string, readonly data?: unknown) {
    super(message);
    this.name = "RpcError";
  }
}

export const INVALID_REQUEST = -32600;
export const INVALID_PARAMS = -32602;
export const METHOD_NOT_FOUND = -32601;
export const INTERNAL_ERROR = -32603;
/** ACP's "authentication required". */
export const AUTH_REQUIRED = -32000;

export type Params = Record<string, unknown>;
export type Handler = (method: string, params: Params, notification: boolean) => Promise<unknown>;

export interface Peer {
  notify(method: string, params: unknown): void;
  request(method: string, params: unknown, signal?: AbortSignal): Promise<unknown>;
  /** Resolves when the input ends (the editor closed the pipe). */
  readonly closed: Promise<void>;
}

export function serve(input: NodeJS.ReadableStream, output: NodeJS.WritableStream, handle: Handler, onError: (m: string) => void): Peer {
  const send = (msg: object): void => void output.write(`${JSON.stringify({ jsonrpc: "2.0", ...msg })}\n`);
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  // Requests we stopped waiting for (the prompt was cancelled): their late replies are expected.
  const abandoned = new Set<number>();
  let nextId = 0;
  const rl = createInterface({ input, crlfDelay: Infinity });
  const closed = new Promise<void>((resolve) => rl.once("close", () => {
    for (const w of waiting.values()) w.reject(new Error("the client closed the connection"));
    waiting.clear();
    resolve();
  }));
  rl.on("line", (line) => {
    if (!line.trim()) return;
    let msg: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(line);
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("not an object");
      msg = parsed as Record<string, unknown>;
    } catch (err) {
      send({ id: null, error: { code: -32700, message: `parse error: ${(err as Error).message}` } });
      return;
    }
    const id = msg.id;
    if (typeof msg.method === "string") {
      const params = typeof msg.params === "object" && msg.params !== null ? (msg.params as Params) : {};
      const notification = id === undefined;
      handle(msg.method, params, notification).then(
        (result) => (notification ? undefined : send({ id, result: result ?? null })),
        (err: unknown) => {
          if (notification) return onError(`${String(msg.method)}: ${err instanceof Error ? err.message : String(err)}`);
          const e = err instanceof RpcError ? err : new RpcError(INTERNAL_ERROR, err instanceof Error ? err.message : String(err));
          send({ id, error: { code: e.code, message: e.message, ...(e.data !== undefined ? { data: e.data } : {}) } });
        },
      );
      return;
    }
    // An id with neither a method nor a result or error is no request and no reply (JSON-RPC
    // 2.0 §5.1: Invalid Request, answered with the id when it is a valid one).
    if (id !== undefined && !("result" in msg) && !("error" in msg)) {
      send({ id: typeof id === "number" || typeof id === "string" ? id : null, error: { code: INVALID_REQUEST, message: "invalid request: a message with an id needs a 'method' (or, as a reply, a 'result' or 'error')" } });
      return;
    }
    // A reply to one of our requests.
    const w = typeof id === "number" ? waiting.get(id) : undefined;
    if (!w && typeof id === "number" && abandoned.delete(id)) return;
    if (!w) return onError(`a reply to no request of ours (id ${JSON.stringify(id)})`);
    waiting.delete(id as number);
    if (msg.error !== undefined) {
      const e = msg.error as { message?: unknown };
      w.reject(new Error(typeof e.message === "string" ? e.message : "the client answered with an error"));
    } else w.resolve(msg.result);
  });
  return {
    closed,
    notify: (method, params) => send({ method, params }),
    request: (method, params, signal) =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        const done = (): void => void signal?.removeEventListener("abort", onAbort);
        const onAbort = (): void => {
          waiting.delete(id);
          abandoned.add(id);
          reject(new Error("cancelled"));
        };
        if (signal?.aborted) return reject(new Error("cancelled"));
        signal?.addEventListener("abort", onAbort, { once: true });
        waiting.set(id, { resolve: (v) => (done(), resolve(v)), reject: (e) => (done(), reject(e)) });
        send({ id, method, params });
      }),
  };
}
