// @ts-check
// Token accounting: what a request is billed, computed over the canonical rendering with the
// real tokenizer, and what it leaves in the prefix cache. DeepSeek persists units at the end of
// each request's input and of its output; so after a request we persist its input and its
// input + reply, the reply rendered as the next request would send it back — both with and
// without reasoning_content, since a client may or may not send the reasoning back.
import { renderMessage, renderRequest } from "./render.mjs";
import { replyAsMessage } from "./script.mjs";
import { concatIds, countTokens, tokenize, tokenizePieces } from "./tokens.mjs";
import { MODELS } from "./validate.mjs";

/**
 * The cache namespace of a request: its model family and user_id (which isolates the KV cache
 * per end user on the real API).
 * @param {any} json
 */
export function cacheNamespace(json) {
  const family = MODELS[json.model]?.family ?? String(json.model);
  return typeof json.user_id === "string" && json.user_id ? `${family}\u0000${json.user_id}` : family;
}

/**
 * Bills one request and returns how to persist what it leaves in the cache.
 * @param {import("./server.mjs").PrefixCache} cache
 * @param {any} json the request in OpenAI shape
 * @param {import("./script.mjs").NormalReply} reply
 */
export function bill(cache, json, reply) {
  const namespace = cacheNamespace(json);
  const input = tokenizePieces(renderRequest(json));
  const hit = cache.lookup(input, namespace);
  const reasoningTokens = reply.reasoning === null ? 0 : countTokens(reply.reasoning);
  let completion = reasoningTokens + countTokens(reply.content);
  for (const tc of reply.toolCalls) completion += countTokens(tc.name) + countTokens(tc.arguments);
  /** @type {import("./server.mjs").WireUsage} */
  const usage = {
    prompt_tokens: input.length,
    completion_tokens: completion,
    total_tokens: input.length + completion,
    prompt_tokens_details: { cached_tokens: hit },
    completion_tokens_details: { reasoning_tokens: reasoningTokens },
    prompt_cache_hit_tokens: hit,
    prompt_cache_miss_tokens: input.length - hit,
  };
  return {
    usage,
    /** The input only: the prompt was processed but the reply never reached the client whole. */
    persistInput() {
      cache.persist(input, namespace);
    },
    /** The input, and the input followed by the reply (with and without its reasoning). */
    persistAll() {
      // The input's full units are a prefix of input + reply's: persisting the latter covers both.
      cache.persist(concatIds(input, tokenize(renderMessage(replyAsMessage(reply, true)))), namespace);
      if (reply.reasoning !== null) {
        cache.persist(concatIds(input, tokenize(renderMessage(replyAsMessage(reply, false)))), namespace);
      }
    },
  };
}
