// Shared usage fixtures for the cost tests.
import type { Usage } from "../../src/contract/wire.js";

/** 10,000 prompt tokens (8,000 cached), 1,500 completion tokens of which 1,000 reasoning. */
export const USAGE_A: Usage = {
  prompt_tokens: 10_000,
  prompt_cache_hit_tokens: 8_000,
  prompt_cache_miss_tokens: 2_000,
  completion_tokens: 1_500,
  reasoning_tokens: 1_000,
};

/** 12,000 prompt tokens (10,000 cached), 500 completion tokens, no reasoning. */
export const USAGE_B: Usage = {
  prompt_tokens: 12_000,
  prompt_cache_hit_tokens: 10_000,
  prompt_cache_miss_tokens: 2_000,
  completion_tokens: 500,
  reasoning_tokens: 0,
};

/** 1,000 prompt tokens, nothing cached, 200 completion tokens. */
export const USAGE_C: Usage = {
  prompt_tokens: 1_000,
  prompt_cache_hit_tokens: 0,
  prompt_cache_miss_tokens: 1_000,
  completion_tokens: 200,
  reasoning_tokens: 0,
};

export const at = (iso: string): Date => new Date(iso);
