// A usage for a reply the API sent without one (a proxy that drops the usage chunk, a stream
// cut before its last chunk). The API bills the request all the same, so booking it at $0
// would under-report spending and let budgets pass. deepcode has no tokenizer at run time:
// the counts come from the character-based estimator (src/core/tokens.ts) over what was sent
// and what came back, and the whole prompt is counted as a cache miss (the dearer case: an
// estimate that errs, errs towards the budget's side).

import type { ChatMessage, ChatRequest, ModelResponse, Usage } from "../../contract/index.js";
import { estimateTokens } from "../tokens.js";

/** Tokens a message costs besides its text (role and framing): a few, as chat templates add. */
const PER_MESSAGE = 4;

function messageTokens(m: ChatMessage): number {
  let n = PER_MESSAGE + estimateTokens(typeof m.content === "string" ? m.content : m.content === null || m.content === undefined ? "" : JSON.stringify(m.content));
  if (m.role === "assistant") {
    if (m.reasoning_content) n += estimateTokens(m.reasoning_content);
    for (const c of m.tool_calls ?? []) n += PER_MESSAGE + estimateTokens(c.function.name) + estimateTokens(c.function.arguments);
  }
  return n;
}

/** The estimated usage of one request and its (possibly partial) reply. */
export function estimateUsage(request: ChatRequest, response: ModelResponse): Usage {
  let prompt = 0;
  for (const m of request.messages) prompt += messageTokens(m);
  if (request.tools?.length) prompt += estimateTokens(JSON.stringify(request.tools));
  const reply = response.message;
  const reasoning = reply.reasoning_content ? estimateTokens(reply.reasoning_content) : 0;
  let completion = reasoning + estimateTokens(reply.content ?? "");
  for (const c of reply.tool_calls ?? []) completion += PER_MESSAGE + estimateTokens(c.function.name) + estimateTokens(c.function.arguments);
  return { prompt_tokens: prompt, completion_tokens: completion, prompt_cache_hit_tokens: 0, prompt_cache_miss_tokens: prompt, reasoning_tokens: reasoning };
}

/** Whether anything of a reply arrived (a reply cut before its first byte costs no completion,
 *  and may not have been billed at all: nothing is estimated for it). */
export function replyArrived(response: ModelResponse): boolean {
  const m = response.message;
  return !response.incomplete || !!(m.content || m.reasoning_content || m.tool_calls?.length);
}
