// The provider's public shapes (re-exported by index.ts).

import type { ChatRequest, ModelDelta, ModelResponse } from "../contract/index.js";

export interface ProviderOptions {
  /** DEEPSEEK_BASE_URL or a config row's; http:// is accepted only for loopback hosts. */
  baseUrl: string;
  apiKey: string;
  /** Where the key came from, for messages: "DEEPSEEK_API_KEY", "~/.deepcode/credentials" … */
  keySource: string;
  protocol?: "openai" | "anthropic";
  /** HTTPS_PROXY / https_proxy / HTTP_PROXY / http_proxy / NO_PROXY / no_proxy (default process.env). */
  env?: Record<string, string | undefined>;
  /** An extra trusted CA, added to the system roots. */
  ca?: string | Buffer;
  /** Attempts in all, first included (default 4). */
  maxAttempts?: number;
  /** Silence allowed before the reply starts (default 600 000: the server itself gives up after
   *  10 min of queueing). Any byte resets it, keep-alive comments included. Before the response
   *  itself (status and headers) arrives, keepAliveLimitMs bounds it too: a server that accepts
   *  and sends nothing is not a queue (DeepSeek answers at once and sends keep-alives). */
  firstByteTimeoutMs?: number;
  /** Silence allowed once the reply has started (default 120 000); keep-alives reset it. */
  idleTimeoutMs?: number;
  /** How long a response may send nothing but keep-alives (SSE comments, blank lines) — before
   *  the reply starts or between its pieces — before it ends with an error instead of hanging
   *  (default 120 000; settings `apiIdleTimeoutMs`). A queued request that never starts is not
   *  retried: it would queue again. */
  keepAliveLimitMs?: number;
  /** Once the stream has sent its first chunk, how long it may go without a new piece of
   *  reasoning, content or a tool call (default 45 000; settings `apiStallTimeoutMs`). An attempt
   *  that stalls with nothing or only reasoning is retried; one with content or calls ends incomplete. */
  stallTimeoutMs?: number;
  /** Time allowed to connect — TCP, a proxy's answer to CONNECT, TLS (default 30 000; never
   *  more than keepAliveLimitMs). */
  connectTimeoutMs?: number;
  /** The whole request, retries and their waits included (default 1 800 000). */
  totalTimeoutMs?: number;
  /** Waits between attempts; injectable so tests observe backoff without waiting. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The jitter source, in [0, 1). */
  random?: () => number;
}

export interface RequestOptions {
  /** Aborting ends the request at once (its socket destroyed): before any content the request
   *  rejects with ProviderError("aborted"); after, it resolves with what arrived. */
  signal?: AbortSignal;
  /** Each piece of the reply as it arrives, and each retry before its wait: a retry's
   *  `attempt` is the number of the attempt about to be made (2 for the first retry). A
   *  listener that throws is ignored. */
  onDelta?: (d: ModelDelta) => void;
}

export interface CheckResult {
  ok: boolean;
  status?: number;
  message: string;
}

export interface Provider {
  readonly protocol: "openai" | "anthropic";
  /**
   * One model round trip (streamed unless `req.stream === false`), after `prepareRequest`.
   * Resolves with the reply; once a piece of it has arrived, any early ending still resolves,
   * with what arrived, finishReason null and `incomplete.reason` = "<code>: <words>", the code
   * one of aborted, timeout, idle_timeout, disconnected, malformed_chunk, api_error.
   * Rejects with ProviderError before that (`attempts` says how many were made).
   */
  request(req: ChatRequest, opts?: RequestOptions): Promise<ModelResponse>;
  /** A cheap authenticated request for `deepcode doctor` (GET /user/balance; /models for other
   *  vendors). Never throws. */
  check(signal?: AbortSignal): Promise<CheckResult>;
}
