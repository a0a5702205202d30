// Usage from the wire is checked before any figure is shown or booked: a relay or a vendor
// can send counts that cannot all be true (a negative cache-miss count, a hit count above the
// prompt, `input_tokens: -400`; Alishahryar1/free-claude-code#1593). DeepSeek's own rule
// (api-docs.deepseek.com, checked 2026-11-30) is prompt_tokens = cache hit + cache miss and
// total_tokens = prompt + completion; a count that breaks it is derived from the others where
// they agree, else clamped to what can be true. Errs towards the dearer reading: an unknown
// split of the prompt counts as cache misses.

import type { Usage } from "../contract/index.js";

export interface CheckedUsage {
  usage: Usage;
  /** What was repaired, in words; absent when the usage was consistent. */
  note?: string;
}

const valid = (n: number | undefined): n is number => n !== undefined && Number.isFinite(n) && n >= 0;

/** `u` as received (after the protocol's field mapping); `total`: the wire's total_tokens, when sent. */
export function checkUsage(u: Usage, total?: number): CheckedUsage {
  const fixed: string[] = [];
  const say = (field: string, was: number, now: number, how: string) => fixed.push(`${field} ${was} → ${now} (${how})`);

  let completion = u.completion_tokens;
  let prompt = u.prompt_tokens;
  if (!valid(completion)) {
    const derived = valid(total) && valid(prompt) && total >= prompt ? total - prompt : 0;
    say("completion_tokens", completion, derived, derived > 0 ? "total − prompt" : "clamped");
    completion = derived;
  }
  const hitOk = valid(u.prompt_cache_hit_tokens);
  const missOk = valid(u.prompt_cache_miss_tokens);
  if (!valid(prompt)) {
    const derived = valid(total) && total >= completion ? total - completion : (hitOk ? u.prompt_cache_hit_tokens : 0) + (missOk ? u.prompt_cache_miss_tokens : 0);
    say("prompt_tokens", prompt, derived, valid(total) && total >= completion ? "total − completion" : "cache hit + miss");
    prompt = derived;
  }
  let hit = u.prompt_cache_hit_tokens;
  let miss = u.prompt_cache_miss_tokens;
  if (!hitOk || hit > prompt) {
    const derived = missOk && miss <= prompt ? prompt - miss : hitOk ? prompt : 0;
    say("prompt_cache_hit_tokens", hit, derived, missOk && miss <= prompt ? "prompt − miss" : "clamped");
    hit = derived;
  }
  if (!missOk || hit + miss !== prompt) {
    const derived = prompt - hit;
    if (derived !== miss) say("prompt_cache_miss_tokens", miss, derived, "prompt − hit");
    miss = derived;
  }
  let reasoning = u.reasoning_tokens;
  if (!valid(reasoning) || reasoning > completion) {
    const derived = valid(reasoning) ? completion : 0;
    say("reasoning_tokens", reasoning, derived, "clamped");
    reasoning = derived;
  }
  const usage: Usage = { prompt_tokens: prompt, completion_tokens: completion, prompt_cache_hit_tokens: hit, prompt_cache_miss_tokens: miss, reasoning_tokens: reasoning };
  return fixed.length ? { usage, note: `the API sent token counts that cannot all be true; repaired before booking: ${fixed.join(", ")}` } : { usage };
}
