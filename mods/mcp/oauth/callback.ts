// The loopback end of a sign-in (RFC 8252 §7.3): an HTTP server on 127.0.0.1 that the
// authorization server sends the browser back to, at /callback. It answers only the sign-in it
// waits for: a `state` that is not the one deepcode sent is refused (400) and the wait goes on,
// so a page elsewhere cannot hand deepcode a code of its own choosing.

import { createServer, type Server } from "node:http";
import { timingSafeEqual } from "node:crypto";

export interface CallbackResult {
  code: string;
  /** RFC 9207's `iss`, when the authorization server sent one. */
  iss?: string;
}

export interface Callback {
  redirectUri: string;
  /** The authorization response for `state`; rejects on an error response, the signal or time. */
  wait(state: string, signal: AbortSignal, timeoutMs: number): Promise<CallbackResult>;
  close(): void;
}

const PAGE = (title: string, text: string): string =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font-family:sans-serif;margin:3em"><h1>${title}</h1><p>${text}</p></body>`;

export async function listenCallback(port = 0): Promise<Callback> {
  let expected: string | undefined;
  let settle: { ok(r: CallbackResult): void; fail(e: Error): void } | undefined;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method !== "GET" || url.pathname !== "/callback") {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    const state = url.searchParams.get("state") ?? "";
    if (!expected || !same(state, expected) || !settle) {
      res.writeHead(400, { "content-type": "text/html; charset=utf-8" }).end(PAGE("Sign-in refused", "This answer does not belong to the sign-in deepcode is waiting for (its state does not match). Nothing was signed in."));
      return;
    }
    const error = url.searchParams.get("error");
    const code = url.searchParams.get("code");
    const s = settle;
    if (error || !code) {
      res.writeHead(400, { "content-type": "text/html; charset=utf-8" }).end(PAGE("Sign-in failed", "The authorization server did not grant access. You can close this tab."));
      settle = undefined;
      const d = url.searchParams.get("error_description");
      s.fail(new Error(`the authorization server refused: ${error ?? "no code in its answer"}${d ? ` (${d.slice(0, 200)})` : ""}`));
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE("Signed in", "deepcode has what it needs. You can close this tab."));
    settle = undefined;
    s.ok({ code, iss: url.searchParams.get("iss") ?? undefined });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  server.unref();
  const addr = server.address();
  const bound = typeof addr === "object" && addr ? addr.port : port;
  return {
    redirectUri: `http://127.0.0.1:${bound}/callback`,
    wait(state, signal, timeoutMs) {
      expected = state;
      return new Promise<CallbackResult>((resolve, reject) => {
        const timer = setTimeout(() => done(new Error(`no answer from the browser within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
        const onAbort = (): void => done(new Error("the sign-in was cancelled"));
        signal.addEventListener("abort", onAbort, { once: true });
        function done(err?: Error, r?: CallbackResult): void {
          clearTimeout(timer);
          signal.removeEventListener("abort", onAbort);
          settle = undefined;
          if (err) reject(err);
          else resolve(r!);
        }
        settle = { ok: (r) => done(undefined, r), fail: (e) => done(e) };
        if (signal.aborted) onAbort();
      });
    },
    close() {
      server.close();
      server.closeAllConnections();
    },
  };
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
