// The closed schema of `$DEEPCODE_HOME/telemetry.jsonl` (off by default, never sent anywhere):
// six events, each a fixed set of fields whose values are enumerations, numbers, booleans,
// deepcode's own identifiers (session ids, timestamps) or tool names the registry knows. There
// is no field for free text, so a prompt, a path, a secret or a model's words cannot be
// written: a line is checked against this schema before it is written, and a line that does
// not conform is dropped whole — never truncated, never rewritten. The telemetry mod writes,
// `deepcode stats --telemetry` reads; both check with `checkTelemetryLine`.

import type { ProviderErrorKind } from "./errors.js";
import { STOP_REASONS } from "./stream.js";

export const TELEMETRY_VERSION = 1;

export const TELEMETRY_EVENTS = ["session_start", "session_end", "turn_complete", "tool_call", "error", "compaction"] as const;
export type TelemetryEvent = (typeof TELEMETRY_EVENTS)[number];

/** Every ProviderError kind: the codes an `error` line may carry (the compiler keeps the two in step). */
export const ERROR_CODES = [
  "bad_request",
  "auth",
  "balance",
  "invalid_params",
  "rate_limit",
  "server",
  "overloaded",
  "network",
  "timeout",
  "idle_timeout",
  "aborted",
  "protocol",
  "config",
] as const satisfies readonly ProviderErrorKind[];

export const SESSION_END_REASONS = ["exit", "new", "switch", "interrupted", "other"] as const;
export const TOOL_OUTCOMES = ["ok", "error", "denied", "suppressed"] as const;

type Field =
  | { t: "enum"; values: readonly string[] }
  | { t: "count" }
  | { t: "usd" }
  | { t: "rate" }
  | { t: "boolean" }
  /** A tool name the registry knows (the checker is given the set). */
  | { t: "tool" }
  /** A model name deepcode's capability table knows (the checker is given the set), or `other`. */
  | { t: "model" };

const count: Field = { t: "count" };
const bool: Field = { t: "boolean" };

/** Per event, every field it has (all required): nothing else may stand in a line. */
export const TELEMETRY_SCHEMA: { readonly [E in TelemetryEvent]: Readonly<Record<string, Field>> } = {
  session_start: { resumed: bool, model: { t: "model" } },
  session_end: { reason: { t: "enum", values: SESSION_END_REASONS }, turns: count },
  turn_complete: {
    turn: count,
    stop: { t: "enum", values: STOP_REASONS },
    steps: count,
    cost_usd: { t: "usd" },
    cache_rate: { t: "rate" },
    prompt_tokens: count,
    cached_tokens: count,
    completion_tokens: count,
    duration_ms: count,
  },
  tool_call: { tool: { t: "tool" }, outcome: { t: "enum", values: TOOL_OUTCOMES } },
  error: { code: { t: "enum", values: ERROR_CODES } },
  compaction: { auto: bool, ok: bool, tokens_before: count, tokens_after: count },
};

/** Fields every line has besides its event's own. */
const COMMON = ["v", "event", "at", "session"] as const;
/** deepcode's session ids (newSessionId in src/core/session/store.ts). */
const SESSION_ID = /^\d{8}-\d{6}-[0-9a-f]{6}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;
/** What a tool name may look like at all (the API's function-name grammar). */
const TOOL_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const MODEL_NAME = /^[a-z][a-z0-9.-]{0,63}$/;

export interface TelemetryVocabulary {
  tools: ReadonlySet<string>;
  models: ReadonlySet<string>;
}

export type TelemetryLine = { v: number; event: TelemetryEvent; at: string; session: string } & Record<string, string | number | boolean>;

/** Why `line` does not conform, or null when it does. Any key not in the schema, any string
 *  that is not one of the allowed values, any number out of range fails the whole line. */
export function checkTelemetryLine(line: unknown, vocab: TelemetryVocabulary): string | null {
  if (typeof line !== "object" || line === null || Array.isArray(line)) return "not an object";
  const o = line as Record<string, unknown>;
  if (o.v !== TELEMETRY_VERSION) return "unknown version";
  if (typeof o.event !== "string" || !(TELEMETRY_EVENTS as readonly string[]).includes(o.event)) return "unknown event";
  if (typeof o.at !== "string" || !TIMESTAMP.test(o.at)) return "at is not a timestamp";
  if (typeof o.session !== "string" || !SESSION_ID.test(o.session)) return "session is not a session id";
  const fields = TELEMETRY_SCHEMA[o.event as TelemetryEvent];
  for (const key of Object.keys(o)) {
    if ((COMMON as readonly string[]).includes(key)) continue;
    if (!Object.prototype.hasOwnProperty.call(fields, key)) return `${key} is not a field of ${o.event}`;
  }
  for (const [key, f] of Object.entries(fields)) {
    const why = checkField(o[key], f, vocab);
    if (why) return `${key} ${why}`;
  }
  return null;
}

function checkField(v: unknown, f: Field, vocab: TelemetryVocabulary): string | null {
  switch (f.t) {
    case "enum":
      return typeof v === "string" && f.values.includes(v) ? null : "is not one of the allowed values";
    case "boolean":
      return typeof v === "boolean" ? null : "is not a boolean";
    case "count":
      return typeof v === "number" && Number.isSafeInteger(v) && v >= 0 ? null : "is not a count";
    case "usd":
      return typeof v === "number" && Number.isFinite(v) && v >= 0 && v < 1e6 ? null : "is not an amount";
    case "rate":
      return typeof v === "number" && Number.isFinite(v) && v >= 0 && v <= 1 ? null : "is not a rate between 0 and 1";
    case "tool":
      return typeof v === "string" && TOOL_NAME.test(v) && vocab.tools.has(v) ? null : "is not a registered tool";
    case "model":
      return typeof v === "string" && MODEL_NAME.test(v) && (v === "other" || vocab.models.has(v)) ? null : "is not a known model";
  }
}
