// The thinking-mode rule, applied to every request before it leaves: the provider never sends
// what the API would reject, and never sends reasoning the model does not need back.
// Facts (api-docs.deepseek.com, "Thinking Mode" and "Function Calling", checked 2026-11-30):
// thinking mode rejects tool_choice `required` or a named function (400 "Thinking mode does not
// support this tool_choice"); with tools, every earlier assistant message's reasoning_content
// must be passed back (400 "The `reasoning_content` in the thinking mode must be passed back to
// the API."); without tools it is ignored. Function names match [a-zA-Z0-9_-]{1,64}, ≤ 128 tools.

import { ProviderError, reasoningRequired, thinkingOn, withoutReasoning } from "../contract/index.js";
import type { ChatRequest, ModelCaps } from "../contract/index.js";

const FUNCTION_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_TOOLS = 128;

/**
 * Check `req` against the model's capabilities and return the request to send: a new object
 * (the input is never mutated; it may be frozen). Throws ProviderError("config") for a forced
 * tool call in thinking mode, ProviderError("bad_request") for a request the API would reject.
 */
export function prepareRequest(req: ChatRequest, caps: ModelCaps): ChatRequest {
  const thinking = thinkingOn(caps, req);
  validateTools(req);

  const forced = req.tool_choice === "required" || typeof req.tool_choice === "object";
  if (thinking && forced) {
    throw new ProviderError(
      "config",
      `${req.model} is in thinking mode, which does not accept tool_choice ${describeChoice(req)}; ` +
        `send thinking: {type: "disabled"} for a request that must force a tool call`,
    );
  }

  // The same rule the context uses to decide what it keeps (contract: reasoningRequired).
  if (reasoningRequired(caps, req)) {
    req.messages.forEach((m, i) => {
      if (m.role === "assistant" && typeof m.reasoning_content !== "string") {
        throw new ProviderError(
          "bad_request",
          `message ${i} (assistant) has no reasoning_content: with tools in thinking mode, ${req.model} ` +
            `needs the reasoning_content of every earlier assistant message sent back ("" if it had none)`,
        );
      }
    });
    return { ...req, messages: req.messages.slice() };
  }
  return { ...req, messages: req.messages.map(withoutReasoning) };
}


function validateTools(req: ChatRequest): void {
  const tools = req.tools ?? [];
  if (tools.length > MAX_TOOLS) {
    throw new ProviderError("bad_request", `${tools.length} tools offered; the API accepts at most ${MAX_TOOLS}`);
  }
  for (const t of tools) {
    const name = t.function?.name;
    if (typeof name !== "string" || !FUNCTION_NAME.test(name)) {
      throw new ProviderError(
        "bad_request",
        `tool name ${JSON.stringify(name)} is not accepted by the API: use 1 to 64 of a-z A-Z 0-9 _ -`,
      );
    }
  }
}

function describeChoice(req: ChatRequest): string {
  const c = req.tool_choice;
  return typeof c === "object" ? `{function: ${JSON.stringify(c.function.name)}}` : JSON.stringify(c);
}
