// The capability table: everything deepcode must know of a model to talk to it correctly, in
// one place. Facts from api-docs.deepseek.com (models & pricing, thinking mode, function
// calling), checked 2026-11-30. Aliases route to the family they are billed and served as.

import type { ModelCaps } from "../contract/index.js";

const DEEPSEEK = {
  protocol: "openai",
  reasoningBackWithTools: true,
  reminderRole: true,
  contextWindow: 1_000_000,
  maxOutput: 384_000,
} as const;

type Row = Omit<ModelCaps, "model">;

const TABLE: Readonly<Record<string, Row>> = {
  "deepseek-flash": { ...DEEPSEEK, family: "deepseek-flash", thinkingByDefault: true },
  "deepseek-v4-flash": { ...DEEPSEEK, family: "deepseek-flash", thinkingByDefault: true },
  // The legacy names: `deepseek-reasoner` is the thinking mode of flash, `deepseek-chat` its
  // non-thinking mode (thinking off unless the request turns it on).
  "deepseek-reasoner": { ...DEEPSEEK, family: "deepseek-flash", thinkingByDefault: true },
  "deepseek-chat": { ...DEEPSEEK, family: "deepseek-flash", thinkingByDefault: false },
  "deepseek-v4-pro": { ...DEEPSEEK, family: "deepseek-v4-pro", thinkingByDefault: true },
};

/** A model we know nothing about (another vendor's): assume nothing the API may reject. */
const CONSERVATIVE: Row = {
  family: "unknown",
  protocol: "openai",
  thinkingByDefault: false,
  reasoningBackWithTools: false,
  reminderRole: false,
  contextWindow: 128_000,
  maxOutput: 8_192,
};

/** The capabilities of `model` (its own row, or the conservative row for unknown models). */
export function capsFor(model: string): ModelCaps {
  const row = TABLE[model];
  if (row) return { model, ...row };
  return { model, ...CONSERVATIVE, family: model };
}

/** The model names the table knows, for listings and config validation. */
export const KNOWN_MODELS: readonly string[] = Object.keys(TABLE);

