// Errors that come from something in front of the API: a gateway's HTML page (nginx 504,
// langgenius/dify#15889; Cloudflare 502, BigPizzaV3/CodexPlusPlus#1567) and a relay that
// passes on its upstream's reason (OpenRouter's error.metadata.raw, anomalyco/opencode#24534).
import { afterEach, describe, expect, it } from "vitest";
import type { ModelDelta } from "../../src/contract/index.js";
import { ask, chunk, collector, fakeSleep, provider, rawServer, rejection, startStream } from "./helpers.js";
import type { RawServer } from "./helpers.js";

let server: RawServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const NGINX_504 = `<html>\r\n<head><title>504 Gateway Time-out</title></head>\r\n<body>\r\n<center><h1>504 Gateway Time-out</h1></center>\r\n<hr><center>nginx/1.25.3</center>\r\n</body>\r\n</html>\r\n`;
const CLOUDFLARE_502 = `<!DOCTYPE html>\n<!--[if lt IE 7]> <html class="no-js ie6 oldie" lang="en-US"> <![endif]-->\n<!--[if gt IE 8]><!--> <html class="no-js" lang="en-US"> <!--<![endif]-->\n<head>\n<title>api.example.com | 502: Bad gateway</title>\n<meta charset="UTF-8" />\n<style>body{margin:0;padding:0}</style>\n</head>\n<body><div id="cf-wrapper"><h1>Bad gateway</h1><p>Error code 502</p></div></body>\n</html>\n`;

/** Answers `status` with `body` as text/html `times` times, then a reply. */
async function gateway(status: number, body: string, times: number, headers: Record<string, string> = {}) {
  return rawServer((_req, res, n) => {
    if (n < times) {
      res.writeHead(status, { "content-type": "text/html", ...headers });
      return void res.end(body);
    }
    startStream(res);
    res.end(chunk({ content: "answered" }, "stop") + "data: [DONE]\n\n");
  });
}

const retries = (deltas: ModelDelta[]) => deltas.filter((d): d is Extract<ModelDelta, { kind: "retry" }> => d.kind === "retry");

describe("a gateway's error page", () => {
  it("is retried when nginx answers 504 once, and the reply that follows is kept", async () => {
    server = await gateway(504, NGINX_504, 1);
    const c = collector();
    const r = await provider(server.url).request(ask(), { onDelta: c.onDelta });
    expect(r.message.content).toBe("answered");
    expect(server.received).toHaveLength(2);
    expect(retries(c.deltas)[0]?.reason).toBe('a gateway in front of the API failed (504): an HTML error page "504 Gateway Time-out" (from a gateway, not the API)');
  });

  it.each([502, 503, 504])("retries a %i like a 500, waiting what Retry-After says", async (status) => {
    server = await gateway(status, NGINX_504.replace(/504 Gateway Time-out/g, `${status} Oops`), 2, { "retry-after": "4" });
    const { sleep, delays } = fakeSleep();
    const r = await provider(server.url, { sleep }).request(ask());
    expect(r.message.content).toBe("answered");
    expect(delays).toEqual([4000, 4000]);
  });

  it("shows a persistent Cloudflare 502 page as its status and title, not its markup", async () => {
    server = await gateway(502, CLOUDFLARE_502, 99);
    const err = await rejection(provider(server.url).request(ask()));
    expect(err.status).toBe(502);
    expect(err.attempts).toBe(4);
    expect(err.message).toBe('a gateway in front of the API failed (502): an HTML error page "api.example.com | 502: Bad gateway" (from a gateway, not the API) (gave up after 4 attempts)');
    expect(err.message).not.toMatch(/<|DOCTYPE|IE 7/);
  });

  it("names an HTML page without a title as a gateway's page", async () => {
    server = await gateway(502, "<html><body><h1>Bad Gateway</h1></body></html>", 99);
    const err = await rejection(provider(server.url, { maxAttempts: 1 }).request(ask()));
    expect(err.message).toBe("a gateway in front of the API failed (502): an HTML error page (from a gateway, not the API)");
  });
});

describe("a relay's error that carries its upstream's reason", () => {
  const openRouter429 = JSON.stringify({
    error: {
      message: "Provider returned error",
      code: 429,
      metadata: {
        raw: "deepseek/deepseek-chat-v3-0324:free is temporarily rate-limited upstream. Please retry shortly, or add your own key to accumulate your rate limits: https://openrouter.ai/settings/integrations",
        provider_name: "Chutes",
      },
    },
    user_id: "user_123",
  });

  it("shows the provider's reason and what to do once the retries are spent", async () => {
    server = await rawServer((_req, res) => {
      res.writeHead(429, { "content-type": "application/json" });
      res.end(openRouter429);
    });
    const err = await rejection(provider(server.url).request(ask()));
    expect(err.kind).toBe("rate_limit");
    expect(err.message).toMatch(/^rate limited \(429\): Provider returned error \(Chutes says: deepseek\/deepseek-chat-v3-0324:free is temporarily rate-limited upstream\./);
    expect(err.message).toMatch(/\(gave up after 4 attempts\): wait a minute and try again, or use a provider, model or key with a higher limit$/);
  });

  it("reads an upstream reason that is itself a JSON error body", async () => {
    const body = JSON.stringify({ error: { message: "Provider returned error", metadata: { raw: JSON.stringify({ error: { message: "quota exceeded for this key" } }) } } });
    server = await rawServer((_req, res) => {
      res.writeHead(400, { "content-type": "application/json" });
      res.end(body);
    });
    const err = await rejection(provider(server.url).request(ask()));
    expect(err.message).toBe("the API rejected the request (400): Provider returned error (the provider says: quota exceeded for this key)");
  });
});
