// What a failed exchange means: which HTTP statuses are retried, the message a person reads,
// Retry-After and backoff. Status meanings from api-docs.deepseek.com "Error Codes" (checked
// 2026-11-30): 400 bad body, 401 bad key, 402 insufficient balance, 422 bad parameters,
// 429 rate limit, 500 server error, 503 overloaded. 429, 500 and 503 are retried, and so are a
// gateway's 502 and 504 (nginx, Cloudflare in front of a relay: langgenius/dify#15889), whose
// next try usually answers.

import { ProviderError, modelNotServed } from "../contract/index.js";
import { KNOWN_MODELS } from "./capabilities.js";
import type { ModelResponse, ProviderErrorKind } from "../contract/index.js";

/** Retry-After values above this are not waited for: the request fails saying when to retry. */
export const MAX_RETRY_AFTER_MS = 60_000;
const BACKOFF_BASE_MS = 1_000;
const BACKOFF_CAP_MS = 30_000;

/** A failed attempt: the error to surface, and whether another attempt may help. */
export class AttemptFailure extends Error {
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = "AttemptFailure";
  }

  /** What the API had sent before this attempt failed, when it sent anything (reasoning only,
   *  dropped): the API bills it, so the client hands it on to be booked (ModelResponse.dropped). */
  spent?: ModelResponse;

  toProviderError(attempts: number): ProviderError {
    return new ProviderError(this.kind, this.message, this.status, attempts);
  }
}

/** A reply cut mid-stream by a failure another attempt may mend (a dropped connection, an error
 *  the server reported mid-stream): `partial` is what arrived, kept if no later attempt does better. */
export class CutFailure extends AttemptFailure {
  constructor(
    readonly original: AttemptFailure,
    readonly partial: ModelResponse,
  ) {
    super(original.kind, `${original.message} (the reply was cut mid-stream; asking again)`, true, original.status);
    this.name = "CutFailure";
  }
}

export interface StatusContext {
  status: number;
  /** The API's own error message (already redacted), if the body had one. */
  apiMessage: string | undefined;
  keySource: string;
  retryAfterMs: number | undefined;
  url: string;
}

/** What a person can do about a 429 that outlasted the retries (said once, when deepcode gives up). */
export const RATE_HINT = ": wait a minute and try again, or use a provider, model or key with a higher limit";

/** The failure an HTTP error status stands for. */
export function statusFailure(c: StatusContext): AttemptFailure {
  const { status } = c;
  if ((status === 400 || status === 404 || status === 422) && c.apiMessage && modelNotServed(c.apiMessage)) {
    return new AttemptFailure("bad_request", `the API does not serve this model (${status}): ${c.apiMessage}; DeepSeek serves ${KNOWN_MODELS.join(", ")}: choose one with --model (or /model)`, false, status);
  }
  const said = c.apiMessage ? `: ${c.apiMessage}` : "";
  switch (status) {
    case 400:
      return new AttemptFailure("bad_request", `the API rejected the request (400)${said}`, false, status);
    case 401:
    case 403:
      return new AttemptFailure("auth", `API key rejected (key from ${c.keySource}) (${status})${said}`, false, status);
    case 402:
      return new AttemptFailure("balance", `balance exhausted: top up your DeepSeek account (402)${said}`, false, status);
    case 404:
      return new AttemptFailure("config", `no API endpoint at ${c.url} (404): check the base URL${said}`, false, status);
    case 422:
      return new AttemptFailure("invalid_params", `the API rejected a parameter (422)${said}`, false, status);
    case 429:
      return new AttemptFailure("rate_limit", `rate limited (429)${said}`, true, status, c.retryAfterMs);
    case 500:
      return new AttemptFailure("server", `the API had a server error (500)${said}`, true, status, c.retryAfterMs);
    case 503:
      return new AttemptFailure("overloaded", `the API is overloaded (503)${said}`, true, status, c.retryAfterMs);
    case 502:
    case 504:
      return new AttemptFailure("server", `a gateway in front of the API failed (${status})${said}`, true, status, c.retryAfterMs);
    default:
      if (status >= 500) return new AttemptFailure("server", `the API answered ${status}${said}`, false, status);
      return new AttemptFailure("bad_request", `the API answered ${status}${said}`, false, status);
  }
}

/** The `message` of an OpenAI- or Anthropic-shaped error body, bounded; else a bounded text
 *  body. An upstream's own reason (OpenRouter's `error.metadata.raw`, anomalyco/opencode#24534)
 *  follows the relay's words; an HTML page (a gateway's) is reduced to its title. */
export function apiMessageOf(body: string): string | undefined {
  const text = body.trim();
  if (!text) return undefined;
  let msg: string | undefined;
  try {
    const j = JSON.parse(text) as { error?: { message?: unknown; metadata?: unknown } | string; message?: unknown };
    if (typeof j.error === "string") msg = j.error;
    else if (j.error && typeof j.error.message === "string") msg = withUpstream(j.error.message, j.error.metadata);
    else if (typeof j.message === "string") msg = j.message;
  } catch {
    // Not JSON: a gateway's HTML page is named by its title, plain text is shown as it is.
    msg = htmlTitle(text) ?? text;
  }
  if (msg === undefined) return undefined;
  const flat = msg.replace(/\s+/g, " ").trim();
  return flat.length > 300 ? `${flat.slice(0, 300)}…` : flat;
}

/** An HTML page as `HTML page "<title>"` (or `HTML page` without one); undefined for text that
 *  is not HTML. A page's markup is no message a person can read. */
export function htmlTitle(text: string): string | undefined {
  if (!/^(?:<!doctype html|<html|<head|<body|<!--)/i.test(text) && !/<\/html>\s*$/i.test(text)) return undefined;
  const m = /<title[^>]*>([^<]*)<\/title>/i.exec(text);
  const title = m?.[1]?.replace(/&amp;/g, "&").replace(/&#0?39;|&apos;/g, "'").replace(/&quot;/g, '"').replace(/\s+/g, " ").trim();
  return title ? `an HTML error page "${title}" (from a gateway, not the API)` : "an HTML error page (from a gateway, not the API)";
}

/** The relay's message, followed by the provider's own reason when the relay passed it on in
 *  `metadata.raw` (a string, or JSON whose message is in `error.message` or `message`). */
function withUpstream(message: string, metadata: unknown): string {
  if (typeof metadata !== "object" || metadata === null) return message;
  const m = metadata as { raw?: unknown; provider_name?: unknown };
  const raw = typeof m.raw === "string" ? upstreamReason(m.raw) : undefined;
  if (!raw) return message;
  const who = typeof m.provider_name === "string" && m.provider_name.length <= 60 ? m.provider_name : "the provider";
  return `${message} (${who} says: ${raw})`;
}

function upstreamReason(raw: string): string | undefined {
  const text = raw.trim();
  if (!text) return undefined;
  try {
    const j = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof j.error === "string") return j.error;
    if (j.error && typeof j.error.message === "string") return j.error.message;
    if (typeof j.message === "string") return j.message;
  } catch {
    // Not JSON: the provider's words as they are.
  }
  return htmlTitle(text) ?? text;
}

/** Remove every occurrence of the key from text a person or a log may see. */
export function redact(text: string, apiKey: string): string {
  if (apiKey.length < 4) return text;
  return text.split(apiKey).join("[redacted key]");
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return undefined;
  const trimmed = v.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** The wait before attempt `next` (2, 3, …): exponential from 1 s, factor 2, capped at 30 s,
 *  with jitter in [half, whole] so that many clients do not retry in step. */
export function backoffDelay(next: number, random: () => number): number {
  const full = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (next - 2));
  return Math.round(full / 2 + (full / 2) * Math.min(1, Math.max(0, random())));
}

/** A Node connection error in words; retryable unless it is about trust (TLS certificates). */
export function networkFailure(err: unknown, host: string): AttemptFailure {
  const e = err as NodeJS.ErrnoException;
  const code = e?.code ?? "";
  if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/.test(code)) {
    return new AttemptFailure("network", `the TLS certificate of ${host} is not trusted (${code})`, false);
  }
  const what = code || e?.message || String(err);
  return new AttemptFailure("network", `connection to ${host} failed (${what})`, true);
}
