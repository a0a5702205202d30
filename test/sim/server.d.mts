// Types of the DeepSeek API simulator (server.mjs and what it re-exports). The simulator is
// plain JavaScript so node runs it directly; TypeScript tests and benchmarks import it through
// these declarations, and the .mjs files check themselves against them (JSDoc + @ts-check).
import type { IncomingHttpHeaders } from "node:http";

/** One scripted tool call. `arguments` is sent as JSON.stringify(arguments); `raw_arguments`
 *  is sent verbatim (for truncated or otherwise malformed JSON). */
export interface ScriptToolCall {
  id?: string;
  name: string;
  arguments?: unknown;
  raw_arguments?: string;
}

export type FinishReason = "stop" | "length" | "tool_calls" | "content_filter" | "insufficient_system_resource";

/** What the model answers to one request. */
export interface Reply {
  /** Sent only in thinking mode; there a short default stands in when absent. */
  reasoning?: string;
  content?: string;
  tool_calls?: ScriptToolCall[];
  /** Default: "tool_calls" when there are tool calls, else "stop". */
  finish_reason?: FinishReason;
  /** Characters per reasoning/content/arguments delta (default 8). */
  chunkSize?: number;
  /** Pause between stream events (default 0). */
  chunkDelayMs?: number;
  /** Queue time before the first chunk, filled with keep-alives (default 0). */
  keepAliveMs?: number;
  /** Interval of those keep-alives (default 50). */
  keepAliveEveryMs?: number;
}

/** A fault injected into one request. An entry with a fault is consumed like a reply. */
export interface Fault {
  /** Answer with this HTTP status and an error body of the endpoint's shape. */
  status?: number;
  /** Seconds, sent as the Retry-After header (with `status`). */
  retryAfter?: number;
  /** The error message (default: DeepSeek's message for the status). */
  message?: string;
  /** Destroy the socket after this many SSE events (non-stream: after half the body). */
  dropAfterChunks?: number;
  /** Stop writing after this many SSE events; the socket stays open (non-stream: half the body). */
  stallAfterChunks?: number;
  /** While stalled (streams only), send `: keep-alive` comments at this interval. */
  stallKeepAliveEveryMs?: number;
  /** Insert one `data:` line that is not JSON before event k (from 0); the stream goes on. */
  malformedChunkAt?: number;
  /** Destroy the connection before any byte of the response. */
  resetBeforeResponse?: boolean;
  /** Send only keep-alives for this long, then answer the same request with the next entry of
   *  the script — or, with `thenClose`, end the response with no data at all. */
  keepAliveOnlyMs?: number;
  keepAliveEveryMs?: number;
  thenClose?: boolean;
}

/** One chunk of a reply replayed exactly: an object becomes a `chat.completion.chunk` with
 *  this `delta` and `finish_reason` (the first chunk with a finish_reason carries the billed
 *  usage unless `usage: false`; an object replaces it); a string is sent verbatim. A last
 *  chunk "" means the stream ends without `data: [DONE]`. */
export type RawChunk = string | { delta?: Record<string, unknown>; finish_reason?: FinishReason | null; usage?: false | WireUsage };

/** A script entry: a reply, or a fault (stream faults use the entry's reply fields). With
 *  `chunks`, the reply is exactly those chunks (OpenAI protocol; reply fields are ignored). */
export interface ScriptEntry extends Reply {
  fault?: Fault;
  chunks?: RawChunk[];
}

/** Conditions on the request's last message; all given must hold. */
export interface RuleWhen {
  lastRole?: string;
  lastContains?: string;
  /** Its capture groups replace `$0`…`$9` in the strings of the rule's reply. */
  lastRegex?: string | RegExp;
}

export interface Rule {
  when: RuleWhen;
  reply: ScriptEntry;
}

/** Chat requests are in OpenAI shape (Anthropic requests arrive translated). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a script reads any request field it likes
export type ChatRequestJson = any;

export interface Script {
  /** Consumed in order, one per chat request. */
  replies?: ScriptEntry[];
  /** Checked when `replies` is exhausted; the first match answers (rules are not consumed). */
  rules?: Rule[];
  /** In-process only: computes the entry when no rule matched; a nullish result falls through. */
  respond?: (request: ChatRequestJson, index: number) => ScriptEntry | null | undefined | Promise<ScriptEntry | null | undefined>;
  /** When nothing else applies. */
  default?: ScriptEntry;
}

/** Usage exactly as DeepSeek sends it. */
export interface WireUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number };
  completion_tokens_details: { reasoning_tokens: number };
  prompt_cache_hit_tokens: number;
  prompt_cache_miss_tokens: number;
}

export interface SimRequest {
  method: string;
  /** As requested (query string removed). */
  path: string;
  headers: IncomingHttpHeaders;
  /** The body exactly as received. */
  body: string;
  /** The body parsed, or null when it is not JSON. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- whatever the client sent
  readonly json: any;
  /** What the request was billed (OpenAI shape, for both endpoints), or null when not billed. */
  usage: WireUsage | null;
  /** The HTTP status sent; 0 while none was (or when the connection was reset). */
  status: number;
}

export interface SimStats {
  /** Billed chat requests. */
  requests: number;
  promptTokens: number;
  hitTokens: number;
  missTokens: number;
  completionTokens: number;
}

export interface SimulatorOptions {
  script?: Script;
  /** 0 (default) picks a free port. */
  port?: number;
  /** When set, every request must carry it (Bearer, or x-api-key on /anthropic). */
  apiKey?: string;
  /** Serve https with this key pair. */
  tls?: { key: string | Buffer; cert: string | Buffer };
  /** Called once each request has been answered (or left stalled, or reset). */
  onRequest?: (request: SimRequest) => void;
  /** Accept a user, system or tool message whose content is an array of text parts (the
   *  OpenAI shape). DeepSeek's API refuses it ("invalid type: sequence"), and so does the
   *  simulator by default; the peers benchmark turns this on so an agent that sends parts can
   *  still be measured (their text renders, and is cached, as the joined string). */
  textParts?: boolean;
}

export interface Simulator {
  /** "http://127.0.0.1:PORT" (https with `tls`); no trailing slash. */
  readonly url: string;
  readonly port: number;
  readonly requests: SimRequest[];
  /** Replaces the script and resets its cursor. */
  setScript(script: Script): void;
  /** Forgets every persisted prefix. */
  resetCache(): void;
  stats(): SimStats;
  close(): Promise<void>;
}

export interface PrefixCache {
  /** 64. */
  readonly unit: number;
  /** Tokens of `ids` covered by the longest persisted prefix: a multiple of the unit. */
  lookup(ids: ArrayLike<number>, namespace?: string): number;
  /** Persists every full-unit prefix of `ids`. */
  persist(ids: ArrayLike<number>, namespace?: string): void;
  clear(): void;
  /** Distinct units persisted. */
  readonly size: number;
}

export function startSimulator(options?: SimulatorOptions): Promise<Simulator>;
/** DeepSeek V3 tokens of `text` (memoized). */
export function countTokens(text: string): number;
/** The token ids of `text`; the array is shared: do not mutate it. */
export function tokenize(text: string): Uint32Array;
/** The canonical pieces of a Chat Completions request (see render.mjs). */
export function renderRequest(json: ChatRequestJson): string[];
export function createPrefixCache(): PrefixCache;
/** DSML tool-call markup, as DeepSeek models sometimes write it in `content`. */
export function dsml(
  calls: { name: string; params?: Record<string, unknown> }[],
  options?: { ascii?: boolean; wrapper?: "tool_calls" | "function_calls"; newlines?: boolean },
): string;
/** Tool calls as JSON text, one per line, as models sometimes write them in reasoning. */
export function jsonToolCallText(calls: { name: string; arguments?: Record<string, unknown> }[]): string;
