// The four tiers a turn can run at, each a profile settings can remap, and the predictions the
// estimate makes per task class and tier.
//
// Settings `tiers` (validated; a bad key is a ConfigError naming it):
//   "tiers": { "chat-full": { "model": "deepseek-flash", "thinking": true, "effort": "high", "maxTokens": 32768 } }
// Only the fields given change; the tier names are fixed.

import { ConfigError } from "../../contract/errors.js";
import type { ChatRequest } from "../../contract/wire.js";
import type { TaskClass } from "../estimate/classify.js";

export const TIER_NAMES = ["chat-fast", "chat-full", "reasoner-budget", "reasoner"] as const;
export type TierName = (typeof TIER_NAMES)[number];

export interface TierProfile {
  model: string;
  thinking: boolean;
  /** `reasoning_effort`; unset leaves the model's default. Ignored without thinking. */
  effort?: "low" | "high" | "max";
  /** `max_tokens` per request (reasoning included). */
  maxTokens: number;
}

export type TierProfiles = Record<TierName, TierProfile>;

export const DEFAULT_TIERS: Readonly<Record<TierName, Readonly<TierProfile>>> = Object.freeze({
  "chat-fast": Object.freeze({ model: "deepseek-flash", thinking: false, maxTokens: 8192 }),
  "chat-full": Object.freeze({ model: "deepseek-flash", thinking: true, maxTokens: 32768 }),
  "reasoner-budget": Object.freeze({ model: "deepseek-v4-pro", thinking: true, effort: "high" as const, maxTokens: 65536 }),
  reasoner: Object.freeze({ model: "deepseek-v4-pro", thinking: true, effort: "max" as const, maxTokens: 131072 }),
});

export function isTierName(v: unknown): v is TierName {
  return typeof v === "string" && (TIER_NAMES as readonly string[]).includes(v);
}

/** The tier profiles in force: the defaults with settings `tiers` applied. */
export function resolveTiers(overrides?: unknown, opts: { file?: string } = {}): TierProfiles {
  const out = structuredClone(DEFAULT_TIERS) as TierProfiles;
  if (overrides === undefined || overrides === null) return out;
  const fail = (path: string, msg: string): never => {
    throw new ConfigError(`${path}: ${msg}`, opts.file);
  };
  if (typeof overrides !== "object" || Array.isArray(overrides)) fail("tiers", "expected an object of tier names to profiles");
  for (const [name, v] of Object.entries(overrides as Record<string, unknown>)) {
    const path = `tiers[${JSON.stringify(name)}]`;
    if (!isTierName(name)) fail(path, `unknown tier (expected one of ${TIER_NAMES.join(", ")})`);
    if (typeof v !== "object" || v === null || Array.isArray(v)) fail(path, "expected { model?, thinking?, effort?, maxTokens? }");
    const p = out[name as TierName];
    for (const [k, val] of Object.entries(v as Record<string, unknown>)) {
      if (k === "model") {
        if (typeof val !== "string" || val.trim() === "") fail(`${path}.model`, "expected a model name");
        p.model = (val as string).trim();
      } else if (k === "thinking") {
        if (typeof val !== "boolean") fail(`${path}.thinking`, "expected true or false");
        p.thinking = val as boolean;
      } else if (k === "effort") {
        if (val !== "low" && val !== "high" && val !== "max" && val !== null) fail(`${path}.effort`, 'expected "low", "high", "max" or null');
        if (val === null) delete p.effort;
        else p.effort = val as TierProfile["effort"];
      } else if (k === "maxTokens") {
        if (typeof val !== "number" || !Number.isInteger(val) || val < 1) fail(`${path}.maxTokens`, "expected a whole number ≥ 1");
        p.maxTokens = val as number;
      } else {
        fail(`${path}.${k}`, "unknown key (expected model, thinking, effort, maxTokens)");
      }
    }
  }
  return out;
}

/** The request fields a tier sets. */
export function tierRequest(p: TierProfile): Pick<ChatRequest, "model" | "thinking" | "reasoning_effort" | "max_tokens"> {
  const req: Pick<ChatRequest, "model" | "thinking" | "reasoning_effort" | "max_tokens"> = {
    model: p.model,
    thinking: { type: p.thinking ? "enabled" : "disabled" },
    max_tokens: p.maxTokens,
  };
  if (p.thinking && p.effort) req.reasoning_effort = p.effort;
  return req;
}

export type Span = readonly [low: number, high: number];

/**
 * Output tokens per model round (visible text, tool-call arguments and reasoning), by task
 * class and tier. Starting points from what coding turns typically produce; `deepcode stats
 * --estimates` shows how often the ranges held, and they are retuned from that.
 */
export const OUTPUT_PER_ROUND: Readonly<Record<TaskClass, Record<TierName, Span>>> = {
  // The low ends are a round that only thinks briefly and calls a tool (~100 tokens); the high
  // ends a round that reasons at length and writes code. Real turns mix both.
  question: { "chat-fast": [60, 800], "chat-full": [120, 2000], "reasoner-budget": [200, 3000], reasoner: [300, 5000] },
  routine: { "chat-fast": [80, 1500], "chat-full": [150, 3000], "reasoner-budget": [250, 4500], reasoner: [400, 8000] },
  refactor: { "chat-fast": [100, 2500], "chat-full": [200, 4500], "reasoner-budget": [300, 6000], reasoner: [500, 12000] },
  architecture: { "chat-fast": [120, 3000], "chat-full": [250, 5000], "reasoner-budget": [400, 8000], reasoner: [700, 16000] },
};

/** Units of work per class. A turn without tools is one round; with tools each unit takes two
 *  to three model rounds (call a tool, read its result, go on). A question may need no tool at
 *  all: its low case is a single round (src/core/estimate/turn.ts). */
export const WORK_UNITS: Readonly<Record<TaskClass, Span>> = {
  question: [1, 2],
  routine: [2, 4],
  refactor: [3, 8],
  architecture: [3, 8],
};
export const AGENTIC_ROUNDS_PER_UNIT: Span = [2, 3];

/** Tool-result tokens that enter the log after each round of an agentic turn (file reads, test
 *  output, search hits), bounded once when they enter. */
export const TOOL_RESULT_PER_ROUND: Readonly<Record<TaskClass, Span>> = {
  question: [300, 3000],
  routine: [400, 3000],
  refactor: [500, 4000],
  architecture: [500, 5000],
};

/** The tier each class deserves when money is not tight. */
export const TIER_FOR_CLASS: Readonly<Record<TaskClass, TierName>> = {
  question: "chat-fast",
  routine: "chat-full",
  refactor: "reasoner-budget",
  architecture: "reasoner",
};
