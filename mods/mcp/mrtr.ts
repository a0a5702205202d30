// Multi-round-trip requests (SEP-2322, the 2026-07-28 revision): instead of asking back over
// a stream, a server answers a request with `resultType: "input_required"`, the questions in
// `inputRequests` (each a `method` and `params`, as a server-to-client request would be) and
// an opaque `requestState`. The client answers each question as it would that request, and
// sends the same request again — a new JSON-RPC id — with `inputResponses` keyed as the
// questions were and `requestState` exactly as it came (left out when none came). A result
// without `resultType` is complete. The state of one request never goes on another.

import { RpcError, type Json, type JsonObject } from "./jsonrpc.js";

/** Answers one server question (`elicitation/create`, `sampling/createMessage`, `roots/list`). */
export type Answer = (method: string, params: JsonObject, signal: AbortSignal) => Promise<JsonObject>;

/** A server that keeps asking is stopped after this many rounds. */
export const MAX_ROUNDS = 10;

/** Send `params` through `send`, answering the server's questions until its result is complete. */
export async function multiRound(send: (params: JsonObject) => Promise<JsonObject>, params: JsonObject, answer: Answer, signal?: AbortSignal): Promise<JsonObject> {
  let p = params;
  for (let round = 1; ; round++) {
    const r = await send(p);
    if (r.resultType !== "input_required") return r;
    if (round >= MAX_ROUNDS) throw new Error(`the server still asked for input after ${MAX_ROUNDS} rounds`);
    const asked = r.inputRequests;
    if (!asked || typeof asked !== "object" || Array.isArray(asked)) throw new Error("the server said it needs input but sent no inputRequests");
    const responses: JsonObject = {};
    const ask = signal ?? new AbortController().signal;
    for (const [key, q] of Object.entries(asked)) {
      if (!q || typeof q !== "object" || Array.isArray(q) || typeof q.method !== "string") throw new Error(`the server's input request ${JSON.stringify(key)} names no method`);
      const qp = q.params && typeof q.params === "object" && !Array.isArray(q.params) ? q.params : {};
      try {
        responses[key] = await answer(q.method, qp, ask);
      } catch (err) {
        if (err instanceof RpcError) throw new Error(`the server asked for ${q.method}, which deepcode cannot answer here (${err.message})`, { cause: err });
        throw err;
      }
    }
    const next: JsonObject = { ...params, inputResponses: responses };
    const state: Json | undefined = r.requestState;
    if (state !== undefined) next.requestState = state;
    p = next;
  }
}
