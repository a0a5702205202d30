// @ts-check
// Writing a reply onto the socket, with the script's timing and stream faults. Both protocols
// hand over their reply as a list of SSE events (or one JSON body); this file owns keep-alives,
// chunk delays, and the faults that break a stream: drop, stall, malformed chunk.

/**
 * @typedef {import("node:http").ServerResponse} ServerResponse
 * @typedef {import("./server.mjs").Fault} Fault
 */

/**
 * A sleep that ends early when the client goes away; resolves to false then.
 * @param {ServerResponse} res
 * @param {number} ms
 * @returns {Promise<boolean>}
 */
export function pause(res, ms) {
  if (res.destroyed || res.writableEnded) return Promise.resolve(false);
  if (ms <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (/** @type {boolean} */ ok) => {
      clearTimeout(timer);
      res.off("close", onClose);
      resolve(ok);
    };
    const onClose = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    res.on("close", onClose);
  });
}

/**
 * Writes `data` and waits until it has been handed to the kernel.
 * @param {ServerResponse} res
 * @param {string} data
 * @returns {Promise<void>}
 */
function flush(res, data) {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve();
    res.write(data, () => resolve());
  });
}

/**
 * Sends `text` every `everyMs` for `totalMs` (the first one at once): the API's keep-alives
 * while a request is queued (`: keep-alive` SSE comments, or blank lines before a JSON body).
 * @param {ServerResponse} res
 * @param {string} text
 * @param {number} totalMs
 * @param {number} everyMs
 * @returns {Promise<boolean>} false when the client went away
 */
export async function keepAlives(res, text, totalMs, everyMs) {
  const end = Date.now() + totalMs;
  while (Date.now() < end) {
    if (res.destroyed) return false;
    res.write(text);
    if (!(await pause(res, Math.min(everyMs, end - Date.now())))) return false;
  }
  return !res.destroyed;
}

/**
 * Streams SSE events. Headers are already sent. Faults: `dropAfterChunks` destroys the socket
 * after that many events; `stallAfterChunks` stops writing (the socket stays open) after that
 * many; `malformedChunkAt: k` inserts one `data:` line that is not JSON before event k (counting
 * from 0) and then goes on with every real event.
 * @param {ServerResponse} res
 * @param {string[]} events complete SSE events, the terminator (`data: [DONE]`) included
 * @param {{ chunkDelayMs: number, fault?: Fault, malformed: string }} how
 * @returns {Promise<"done" | "dropped" | "stalled" | "gone">}
 */
export async function sendEvents(res, events, how) {
  const fault = how.fault ?? {};
  const limit = fault.dropAfterChunks ?? fault.stallAfterChunks ?? Infinity;
  const slow = how.chunkDelayMs > 0;
  let batch = "";
  for (let i = 0; i < events.length; i++) {
    if (i >= limit) break;
    if (i === fault.malformedChunkAt) batch += how.malformed;
    batch += events[i];
    if (slow) {
      if (res.destroyed) return "gone";
      res.write(batch);
      batch = "";
      if (i < events.length - 1 && !(await pause(res, how.chunkDelayMs))) return "gone";
    }
  }
  if (fault.dropAfterChunks !== undefined) {
    if (batch) await flush(res, batch);
    res.socket?.destroy();
    return "dropped";
  }
  if (fault.stallAfterChunks !== undefined) {
    // The socket stays open until the client gives up or the simulator closes; with
    // `stallKeepAliveEveryMs`, keep-alive comments go on arriving meanwhile (not progress).
    if (batch) await flush(res, batch);
    const every = fault.stallKeepAliveEveryMs;
    if (every !== undefined && every > 0) {
      const t = setInterval(() => {
        if (res.destroyed) clearInterval(t);
        else res.write(": keep-alive\n\n");
      }, every);
      res.on("close", () => clearInterval(t));
    }
    return "stalled";
  }
  if (fault.malformedChunkAt !== undefined && fault.malformedChunkAt >= events.length) batch += how.malformed;
  if (res.destroyed) return "gone";
  res.end(batch);
  return "done";
}

/**
 * Sends a whole JSON body (after the status line, unless that already went out). With
 * keep-alives, the status line goes out at once, blank lines follow while queued, then the body (JSON parsers skip the leading whitespace). Stream faults
 * apply to the body: drop and stall send the first half of it; malformedChunkAt sends a body
 * that is not JSON.
 * @param {ServerResponse} res
 * @param {string} body
 * @param {{ keepAliveMs: number, keepAliveEveryMs: number, fault?: Fault }} how
 * @returns {Promise<"done" | "dropped" | "stalled" | "gone">}
 */
export async function sendBody(res, body, how) {
  const fault = how.fault ?? {};
  const breaks = fault.dropAfterChunks !== undefined || fault.stallAfterChunks !== undefined || fault.malformedChunkAt !== undefined;
  if (!res.headersSent) {
    if (how.keepAliveMs <= 0 && !breaks) {
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
      res.end(body);
      return "done";
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.flushHeaders();
  }
  if (how.keepAliveMs > 0 && !(await keepAlives(res, "\n", how.keepAliveMs, how.keepAliveEveryMs))) return "gone";
  if (fault.malformedChunkAt !== undefined) {
    res.end(`${body.slice(0, Math.floor(body.length / 2))}<<not json>>`);
    return "done";
  }
  const half = body.slice(0, Math.floor(body.length / 2));
  if (fault.dropAfterChunks !== undefined) {
    await flush(res, half);
    res.socket?.destroy();
    return "dropped";
  }
  if (fault.stallAfterChunks !== undefined) {
    await flush(res, half);
    return "stalled";
  }
  res.end(body);
  return "done";
}
