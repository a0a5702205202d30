// The provider: prepare the request, run attempts with backoff, enforce the total time limit,
// and turn every failure into a ProviderError that never carries the key.

import { ProviderError } from "../contract/index.js";
import type { ChatRequest, ModelResponse } from "../contract/index.js";
import { Assembler } from "./assemble.js";
import { anthropicProtocol } from "./anthropic.js";
import { runAttempt } from "./attempt.js";
import { capsFor } from "./capabilities.js";
import { thinkingOn } from "../contract/index.js";
import { runCheck } from "./check.js";
import { parseBaseUrl, targetOf } from "./connect.js";
import { AttemptFailure, CutFailure, MAX_RETRY_AFTER_MS, RATE_HINT, backoffDelay, redact } from "./errors.js";
import { openaiProtocol } from "./openai.js";
import { prepareRequest } from "./prepare.js";
import type { Provider, ProviderOptions, RequestOptions } from "./types.js";

const DEFAULTS = {
  maxAttempts: 4,
  firstByteTimeoutMs: 600_000,
  idleTimeoutMs: 120_000,
  // A response with no token for two minutes is no reply a person waits for (issue #37: a
  // stream of keep-alives only ran on past 120 s); settings apiIdleTimeoutMs raises it.
  keepAliveLimitMs: 120_000,
  // A person gives up on a silent stream after 15–60 s (DeepSeek-V3#1608); a healthy one sends
  // a piece every few hundred milliseconds, even while reasoning.
  stallTimeoutMs: 45_000,
  connectTimeoutMs: 30_000,
  totalTimeoutMs: 1_800_000,
};

/** Wait `ms`, or reject as soon as `signal` aborts (with its reason). */
export function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** A provider for one endpoint. Throws ProviderError("config") for a base URL it will not use
 *  (not http(s), or plain http:// to a host other than this machine). */
export function createProvider(opts: ProviderOptions): Provider {
  const protocolName = opts.protocol ?? "openai";
  const protocol = protocolName === "anthropic" ? anthropicProtocol : openaiProtocol;
  let base: URL;
  try {
    base = parseBaseUrl(opts.baseUrl);
  } catch (err) {
    throw toProviderError(err, 1, opts.apiKey);
  }
  const basePath = base.pathname.replace(/\/+$/, "");
  const target = targetOf(base);
  const env = opts.env ?? process.env;
  // A connection (through a proxy too) must be up within the connect limit, never longer than
  // the keep-alive limit (settings apiIdleTimeoutMs): a peer that accepts and says nothing is gone.
  const connectTimeoutMs = Math.min(opts.connectTimeoutMs ?? DEFAULTS.connectTimeoutMs, opts.keepAliveLimitMs ?? DEFAULTS.keepAliveLimitMs);
  const connect = { env, connectTimeoutMs, ...(opts.ca !== undefined ? { ca: opts.ca } : {}) };
  const maxAttempts = Math.max(1, opts.maxAttempts ?? DEFAULTS.maxAttempts);
  const sleep = opts.sleep ?? defaultSleep;
  const random = opts.random ?? Math.random;

  async function request(req: ChatRequest, o: RequestOptions = {}): Promise<ModelResponse> {
    const caps = capsFor(req.model);
    const prepared = prepareRequest(req, caps);
    const thinking = thinkingOn(caps, prepared);
    const stream = prepared.stream !== false;
    const body = protocol.body(prepared, stream, caps, thinking);

    // One signal for the whole request: the caller's abort or the total time limit, with the
    // failure to report as its reason.
    const ctl = new AbortController();
    const totalMs = opts.totalTimeoutMs ?? DEFAULTS.totalTimeoutMs;
    const total = setTimeout(
      () => ctl.abort(new AttemptFailure("timeout", `no complete reply within the total time limit of ${Math.round(totalMs / 1000)} s`, false)),
      totalMs,
    );
    const onAbort = () => ctl.abort(new AttemptFailure("aborted", "the request was cancelled", false));
    if (o.signal?.aborted) onAbort();
    o.signal?.addEventListener("abort", onAbort, { once: true });

    // The longest reply cut mid-stream so far: kept when no later attempt brings one.
    let cut: CutFailure | undefined;
    // Every attempt cut after it started: the API bills each, so the answer carries them.
    const dropped: ModelResponse[] = [];
    const withDropped = (r: ModelResponse, except?: ModelResponse): ModelResponse => {
      const others = dropped.filter((d) => d !== except);
      return others.length > 0 ? { ...r, dropped: others } : r;
    };
    try {
      for (let attempt = 1; ; attempt++) {
        const acc = new Assembler(o.onDelta, thinking);
        let failure: AttemptFailure;
        try {
          return withDropped(await runAttempt({
            target,
            path: basePath + protocol.path,
            headers: protocol.headers(opts.apiKey, stream),
            body,
            stream,
            protocol,
            acc,
            connect,
            apiKey: opts.apiKey,
            keySource: opts.keySource,
            firstByteTimeoutMs: opts.firstByteTimeoutMs ?? DEFAULTS.firstByteTimeoutMs,
            idleTimeoutMs: opts.idleTimeoutMs ?? DEFAULTS.idleTimeoutMs,
            keepAliveLimitMs: opts.keepAliveLimitMs ?? DEFAULTS.keepAliveLimitMs,
            stallTimeoutMs: opts.stallTimeoutMs ?? DEFAULTS.stallTimeoutMs,
            signal: ctl.signal,
          }));
        } catch (err) {
          if (!(err instanceof AttemptFailure)) throw toProviderError(err, attempt, opts.apiKey);
          failure = err;
          if (err instanceof CutFailure) dropped.push(err.partial);
          else if (err.spent) dropped.push(err.spent);
          if (err instanceof CutFailure && (!cut || partLength(err.partial) >= partLength(cut.partial))) cut = err;
        }
        if (cut && (!failure.retryable || attempt >= maxAttempts || ctl.signal.aborted)) return withDropped(cut.partial, cut.partial);
        if (failure.retryable && failure.retryAfterMs !== undefined && failure.retryAfterMs > MAX_RETRY_AFTER_MS) {
          const when = new Date(Date.now() + failure.retryAfterMs).toISOString().replace(/\.\d+Z$/, "Z");
          const msg = `${failure.message}; the API asks to wait ${Math.ceil(failure.retryAfterMs / 1000)} s, longer than deepcode waits: retry after ${when}`;
          throw toProviderError(new AttemptFailure(failure.kind, msg, false, failure.status), attempt, opts.apiKey);
        }
        if (!failure.retryable || attempt >= maxAttempts) {
          const hint = failure.kind === "rate_limit" ? RATE_HINT : "";
          const suffix = failure.retryable && attempt > 1 ? ` (gave up after ${attempt} attempts)${hint}` : hint;
          throw toProviderError(new AttemptFailure(failure.kind, failure.message + suffix, false, failure.status), attempt, opts.apiKey);
        }
        const wait = failure.retryAfterMs ?? backoffDelay(attempt + 1, random);
        const reason = redact(failure.message, opts.apiKey);
        try {
          o.onDelta?.({ kind: "retry", attempt: attempt + 1, delayMs: wait, reason });
        } catch {
          // A listener that throws does not stop the retry (see Assembler.emit).
        }
        try {
          await Promise.race([sleep(wait, ctl.signal), aborted(ctl.signal)]);
        } catch (err) {
          if (cut) return withDropped(cut.partial, cut.partial);
          throw toProviderError(err, attempt, opts.apiKey);
        }
      }
    } finally {
      clearTimeout(total);
      o.signal?.removeEventListener("abort", onAbort);
    }
  }

  return {
    protocol: protocolName,
    request,
    check: (signal) => runCheck({ base, basePath, target, connect, protocol: protocolName, apiKey: opts.apiKey, keySource: opts.keySource, signal }),
  };
}

/** How much of a reply arrived, to keep the longest of several cut attempts. */
function partLength(r: ModelResponse): number {
  const m = r.message;
  return (m.content ?? "").length + (m.reasoning_content ?? "").length + (m.tool_calls ?? []).reduce((n, c) => n + c.function.arguments.length + c.function.name.length, 0);
}

/** Rejects when the signal aborts, so an injected sleep that ignores the signal cannot delay an abort. */
function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) return reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}

function toProviderError(err: unknown, attempts: number, apiKey: string): ProviderError {
  if (err instanceof ProviderError) return err;
  if (err instanceof AttemptFailure) return new ProviderError(err.kind, redact(err.message, apiKey), err.status, attempts);
  const text = err instanceof Error ? err.message : String(err);
  return new ProviderError("network", redact(text, apiKey), undefined, attempts);
}
