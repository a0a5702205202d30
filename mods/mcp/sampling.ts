// `sampling/createMessage`: a server asks for a completion from the model. The person decides
// (settings `mcpSampling`: "ask" — the REPL asks each time, `-p` declines; "allow" — answered
// without asking, also in `-p`; "deny"). It is answered with the session's model, thinking off,
// through `model.request` for the session like any request, whose core prices and records it
// (`model.usage`: the usage ledger and budgets see it). Only text goes to the model: other parts are named.

import type { ChatMessage, ChatRequest, PluginApi } from "../../src/contract/index.js";
import { RpcError, type JsonObject } from "./jsonrpc.js";
import { contentText } from "./results.js";

/** The user rejected it: the code the MCP SDKs use for a declined sampling request. */
const USER_REJECTED = -1;
const DEFAULT_MAX_TOKENS = 1024;
const MAX_TOKENS_CAP = 8192;

export interface SamplingContext {
  server: string;
  policy: "ask" | "allow" | "deny";
  session: { id: string; model: string; turn: number };
}

export async function sampleWithModel(api: PluginApi, c: SamplingContext, params: JsonObject, signal: AbortSignal): Promise<JsonObject> {
  if (c.policy === "deny") throw new RpcError(USER_REJECTED, "deepcode does not let MCP servers use the model (settings mcpSampling: \"deny\")");
  const left: string[] = [];
  const messages: ChatMessage[] = [];
  if (typeof params.systemPrompt === "string" && params.systemPrompt) messages.push({ role: "system", content: params.systemPrompt });
  for (const m of Array.isArray(params.messages) ? params.messages : []) {
    if (!m || typeof m !== "object" || Array.isArray(m)) continue;
    const blocks = Array.isArray(m.content) ? m.content : [m.content];
    const text = blocks
      .map((b) => (b && typeof b === "object" && !Array.isArray(b) ? contentText(c.server, b, left) : undefined))
      .filter((t): t is string => t !== undefined)
      .join("\n\n");
    messages.push(m.role === "assistant" ? { role: "assistant", content: text } : { role: "user", content: text });
  }
  if (!messages.some((m) => m.role === "user")) throw new RpcError(-32602, "the sampling request has no user message");
  const maxTokens = Math.min(typeof params.maxTokens === "number" && params.maxTokens > 0 ? params.maxTokens : DEFAULT_MAX_TOKENS, MAX_TOKENS_CAP);
  const model = c.session.model || "deepseek-flash";
  if (c.policy === "ask") {
    const last = [...messages].reverse().find((m) => m.role === "user");
    const answer = await api.dispatch({
      type: "person.ask",
      sessionId: c.session.id,
      kind: "mcp.sampling",
      from: `mcp:${c.server}`,
      title: `The MCP server "${c.server}" asks to use the model (${model}, up to ${maxTokens} output tokens, billed like any request):`,
      detail: [
        ...(typeof params.systemPrompt === "string" && params.systemPrompt ? [`system: ${short(params.systemPrompt)}`] : []),
        `${messages.filter((m) => m.role !== "system").length} message(s); the last: ${short(typeof last?.content === "string" ? last.content : "")}`,
        ...(left.length ? [`left out (text only): ${left.join("; ")}`] : []),
      ],
    });
    if (answer.decision !== "allow") throw new RpcError(USER_REJECTED, answer.by === "non-interactive" ? "nobody can approve sampling here (-p); settings mcpSampling: \"allow\" permits it" : "the user declined the sampling request");
  }
  const request: ChatRequest = { model, messages, max_tokens: maxTokens, thinking: { type: "disabled" } };
  if (typeof params.temperature === "number") request.temperature = params.temperature;
  if (Array.isArray(params.stopSequences)) request.stop = params.stopSequences.map(String).slice(0, 16);
  // Billed by the model.request core for this session (model.usage: the ledger, budgets, the session's account).
  const response = await api.dispatch({ type: "model.request", sessionId: c.session.id, turn: c.session.turn, step: 0, request, signal });
  return {
    role: "assistant",
    content: { type: "text", text: response.message.content ?? "" },
    model: response.model ?? model,
    stopReason: response.finishReason === "length" ? "maxTokens" : response.finishReason === "stop" ? "endTurn" : String(response.finishReason ?? "endTurn"),
  };
}

function short(s: string): string {
  const one = s.replace(/\s+/g, " ").trim();
  return one.length > 200 ? `${one.slice(0, 197)}...` : one;
}
