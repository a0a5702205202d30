// One HTTP exchange with the API: connect, send, read the reply (streamed or whole), with the
// first-byte and idle timers. It resolves with the reply, or with what arrived marked
// incomplete once a piece of the reply has been handed on; before that it rejects with an
// AttemptFailure that says whether another attempt may help. The total time limit and the
// caller's abort arrive through `signal`, whose reason is the AttemptFailure to report.

import { request as httpRequest } from "node:http";
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import type { ModelResponse } from "../contract/index.js";
import type { Assembler } from "./assemble.js";
import { openSocket } from "./connect.js";
import type { ConnectOptions, Target } from "./connect.js";
import { AttemptFailure, CutFailure, apiMessageOf, networkFailure, parseRetryAfter, redact, statusFailure } from "./errors.js";
import type { WireProtocol } from "./protocol.js";
import { SseParser } from "../lib/sse.js";

const MAX_ERROR_BODY = 64 * 1024;

export interface AttemptInput {
  target: Target;
  path: string;
  headers: Record<string, string>;
  body: string;
  stream: boolean;
  protocol: WireProtocol;
  acc: Assembler;
  connect: ConnectOptions;
  apiKey: string;
  keySource: string;
  firstByteTimeoutMs: number;
  idleTimeoutMs: number;
  keepAliveLimitMs: number;
  /** Once the reply has started: how long it may go without a new piece (reasoning, content or
   *  a tool call) before the attempt counts as stalled. Keep-alives and empty chunks are not
   *  progress. */
  stallTimeoutMs: number;
  signal: AbortSignal;
}

/** Why a reply that already started ended early: `code: words` (codes: aborted, timeout,
 *  idle_timeout, disconnected, malformed_chunk, api_error). */
function incompleteReason(f: AttemptFailure): string {
  switch (f.kind) {
    case "aborted":
      return "aborted: the request was cancelled";
    case "timeout":
      return `timeout: ${f.message}`;
    case "idle_timeout":
      return `idle_timeout: ${f.message}`;
    case "protocol":
      return `malformed_chunk: ${f.message}`;
    case "server":
      return `api_error: ${f.message}`;
    default:
      return `disconnected: ${f.message}`;
  }
}

export function runAttempt(x: AttemptInput): Promise<ModelResponse> {
  const { acc, signal } = x;
  return new Promise<ModelResponse>((resolve, reject) => {
    let settled = false;
    let socket: Socket | undefined;
    let timer: NodeJS.Timeout | undefined;
    let keepAliveTimer: NodeJS.Timeout | undefined;
    let sawResponse = false;
    // The connection's own signal: one still being made when the attempt ends (a timer, an
    // abort) is torn down with it, so no half-open tunnel keeps the process alive.
    const connecting = new AbortController();

    const cleanup = () => {
      settled = true;
      if (!connecting.signal.aborted) connecting.abort(new AttemptFailure("aborted", "the attempt ended", false));
      clearTimeout(timer);
      clearTimeout(keepAliveTimer);
      signal.removeEventListener("abort", onAbort);
      socket?.destroy();
    };
    const succeed = () => {
      if (settled) return;
      cleanup();
      resolve(acc.result());
    };
    const fail = (f: AttemptFailure) => {
      if (settled) return;
      cleanup();
      // An attempt that produced only reasoning is not a reply anyone could keep: it is retried
      // (DeepSeek-V3#1608: a stream that goes silent mid-reasoning and stays open), unless the
      // caller cancelled or the total time ran out (signal aborted).
      if (acc.reasoningOnly && f.kind !== "aborted" && !signal.aborted) {
        const dropped = new AttemptFailure(f.kind, `${f.message} (only reasoning had arrived; it was dropped)`, true, f.status);
        dropped.spent = acc.result(redact(incompleteReason(f), x.apiKey));
        reject(dropped);
      } else if (acc.started && f.retryable && !signal.aborted) {
        // Cut by what a retry mends, as a 500 is (a dropped connection): the client asks again,
        // and keeps this part only if no later attempt brings a reply.
        reject(new CutFailure(f, acc.result(redact(incompleteReason(f), x.apiKey))));
      } else if (acc.started) resolve(acc.result(redact(incompleteReason(f), x.apiKey)));
      else reject(f);
    };
    const onAbort = () => {
      if (!connecting.signal.aborted) connecting.abort(signal.reason);
      fail(signal.reason instanceof AttemptFailure ? signal.reason : new AttemptFailure("aborted", "the request was cancelled", false));
    };
    /** (Re)start the silence timer: any byte resets it, keep-alive comments included. */
    const arm = () => {
      clearTimeout(timer);
      if (settled) return;
      if (acc.started) {
        const s = Math.round(x.idleTimeoutMs / 1000);
        timer = setTimeout(() => fail(new AttemptFailure("idle_timeout", `the stream went silent for ${s} s`, false)), x.idleTimeoutMs);
      } else {
        // No response at all (not even a status line) is bounded by the keep-alive limit too.
        const ms = sawResponse ? x.firstByteTimeoutMs : Math.min(x.firstByteTimeoutMs, x.keepAliveLimitMs);
        const s = Math.round(ms / 1000);
        const what = sawResponse ? "the reply did not start" : "no response";
        const hint = ms < x.firstByteTimeoutMs ? " (settings apiIdleTimeoutMs sets this limit)" : "";
        timer = setTimeout(() => fail(new AttemptFailure("timeout", `${what} from ${x.target.host} within ${s} s${hint}`, false)), ms);
      }
    };

    /** (Re)start the keep-alive limit: only a piece of the reply resets it, never a keep-alive.
     *  Once the reply has started, or the stream sent its first chunk (the server took the
     *  request off its queue, even if the chunk held no token), the shorter stall limit applies:
     *  keep-alives are not progress. */
    let seenPieces = -1;
    let streaming = false;
    const progress = () => {
      if (settled) return;
      if (acc.started || streaming) {
        if (acc.pieces === seenPieces) return;
        seenPieces = acc.pieces;
        clearTimeout(keepAliveTimer);
        // Whichever limit is shorter applies: the stall limit, or the keep-alive limit.
        const stall = x.stallTimeoutMs <= x.keepAliveLimitMs;
        const ms = stall ? x.stallTimeoutMs : x.keepAliveLimitMs;
        keepAliveTimer = setTimeout(() => {
          // Nothing shown yet: another attempt costs the person nothing, so it is asked again.
          const retry = !acc.started;
          const what = acc.started ? "no reasoning, content or tool call" : "the stream began but sent no token, only keep-alives,";
          fail(
            stall
              ? new AttemptFailure("idle_timeout", `the stream stalled: ${what} for ${ms / 1000} s (settings apiStallTimeoutMs sets this limit)`, retry)
              : new AttemptFailure("timeout", `after the reply started, the API sent only keep-alives for ${ms / 1000} s; gave up (settings apiIdleTimeoutMs sets this limit)`, retry),
          );
        }, ms);
        return;
      }
      clearTimeout(keepAliveTimer);
      keepAliveTimer = setTimeout(() => {
        fail(new AttemptFailure("timeout", `the API sent only keep-alives and no reply for ${x.keepAliveLimitMs / 1000} s; gave up (settings apiIdleTimeoutMs sets this limit)`, false));
      }, x.keepAliveLimitMs);
    };

    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    // While connecting, the connect limit (naming what did not answer) applies; the silence
    // timer starts once the socket is up.
    if (x.connect.connectTimeoutMs === undefined) arm();

    openSocket(x.target, x.connect, connecting.signal).then(
      (s) => {
        if (settled) return void s.destroy();
        socket = s;
        arm();
        const req = httpRequest({
          method: "POST",
          host: x.target.host,
          port: x.target.port,
          path: x.path,
          headers: {
            host: x.target.url.host,
            "content-type": "application/json",
            "content-length": String(Buffer.byteLength(x.body)),
            "user-agent": "deepcode",
            ...x.headers,
          },
          createConnection: () => s,
        });
        req.on("error", (err) => fail(networkFailure(err, x.target.host)));
        req.on("response", (res) => {
          sawResponse = true;
          arm();
          progress();
          onResponse(res);
        });
        req.end(x.body);
      },
      (err: unknown) => fail(err instanceof AttemptFailure ? err : networkFailure(err, x.target.host)),
    );

    const dropped = () =>
      new AttemptFailure("network", `the connection to ${x.target.host} closed before the reply was complete`, true);

    function onResponse(res: IncomingMessage): void {
      const status = res.statusCode ?? 0;
      res.on("error", () => fail(dropped()));
      res.on("close", () => fail(dropped()));
      if (status < 200 || status >= 300) return readError(res, status);
      const type = String(res.headers["content-type"] ?? "");
      if (x.stream && type.includes("text/event-stream")) return readStream(res);
      return readWhole(res);
    }

    function readError(res: IncomingMessage, status: number): void {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (c: Buffer) => {
        arm();
        if (size < MAX_ERROR_BODY) chunks.push(c);
        size += c.length;
      });
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        const msg = apiMessageOf(text);
        fail(
          statusFailure({
            status,
            apiMessage: msg === undefined ? undefined : redact(msg, x.apiKey),
            keySource: x.keySource,
            retryAfterMs: parseRetryAfter(res.headers["retry-after"]),
            url: `${x.target.url.origin}${x.path}`,
          }),
        );
      });
    }

    function readStream(res: IncomingMessage): void {
      const next = x.protocol.openStream(acc);
      const parser = new SseParser({
        onEvent: (ev) => {
          // The Anthropic protocol's keep-alive is an event ("ping"); any other event is the
          // stream proper, after which only tokens count as progress.
          if (ev.event !== "ping" && !streaming) {
            streaming = true;
            progress();
          }
          if (!settled && next(ev) === "done") return succeed();
          progress();
        },
      }, { flushAtEnd: true });
      const guarded = (step: () => void) => {
        try {
          step();
        } catch (err) {
          fail(err instanceof AttemptFailure ? err : new AttemptFailure("protocol", String(err), false));
        }
      };
      res.on("data", (c: Buffer) => {
        if (settled) return;
        guarded(() => parser.push(c));
        arm();
      });
      res.on("end", () => {
        if (settled) return;
        guarded(() => parser.end());
        // A server that closes after the finish reason without [DONE] still finished.
        if (acc.finished) succeed();
        else fail(dropped());
      });
    }

    function readWhole(res: IncomingMessage): void {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => {
        chunks.push(c);
        arm();
        if (c.toString("utf8").trim()) progress(); // blank lines are a queued request's keep-alives
      });
      res.on("end", () => {
        if (settled) return;
        // DeepSeek keeps a queued non-streamed request alive with blank lines before the JSON.
        const text = Buffer.concat(chunks).toString("utf8").trim();
        try {
          x.protocol.onWhole(JSON.parse(text) as unknown, acc);
          succeed();
        } catch (err) {
          fail(err instanceof AttemptFailure ? err : new AttemptFailure("protocol", `the API sent a reply that is not JSON`, false));
        }
      });
    }
  });
}
