import { afterEach, describe, expect, it } from "vitest";
import type { ModelDelta } from "../../src/contract/index.js";
import { KEY, ask, chunk, collector, errorBody, fakeSleep, provider, rawServer, startStream, rejection } from "./helpers.js";
import type { RawServer } from "./helpers.js";

let server: RawServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A server that answers `status` (with an error body and headers) `times` times, then a reply. */
async function failing(status: number, times: number, headers: Record<string, string> = {}, message = "upstream says no") {
  return rawServer((_req, res, n) => {
    if (n < times) {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(errorBody(message));
      return;
    }
    startStream(res);
    res.end(chunk({ content: "ok" }, "stop") + "data: [DONE]\n\n");
  });
}

describe("errors the API answers with", () => {
  it.each([
    [400, "bad_request", /the API rejected the request \(400\): upstream says no/],
    [401, "auth", /API key rejected \(key from DEEPSEEK_API_KEY\).*upstream says no/],
    [402, "balance", /balance exhausted: top up your DeepSeek account.*upstream says no/],
    [422, "invalid_params", /the API rejected a parameter \(422\): upstream says no/],
  ])("a %i is not retried and says what went wrong, with the API's own message", async (status, kind, text) => {
    server = await failing(status, 1);
    const { deltas, onDelta } = collector();
    const err = await rejection(provider(server.url).request(ask(), { onDelta }));
    expect(err.kind).toBe(kind);
    expect(err.status).toBe(status);
    expect(err.message).toMatch(text);
    expect(err.attempts).toBe(1);
    expect(server.received).toHaveLength(1);
    expect(deltas).toEqual([]);
  });

  it.each([
    [429, "rate_limit"],
    [500, "server"],
    [503, "overloaded"],
  ])("a %i is retried with exponential backoff and jitter, each retry announced", async (status) => {
    server = await failing(status, 3);
    const { sleep, delays } = fakeSleep();
    const { deltas, onDelta } = collector();
    const r = await provider(server.url, { sleep, random: () => 0.5 }).request(ask(), { onDelta });
    expect(r.message.content).toBe("ok");
    expect(server.received).toHaveLength(4);
    // 1 s, 2 s, 4 s, each with jitter between half and all of it (0.5 → three quarters).
    expect(delays).toEqual([750, 1500, 3000]);
    const retries = deltas.filter((d): d is Extract<ModelDelta, { kind: "retry" }> => d.kind === "retry");
    expect(retries.map((d) => [d.attempt, d.delayMs])).toEqual([
      [2, 750],
      [3, 1500],
      [4, 3000],
    ]);
    expect(retries[0].reason).toContain(String(status));
  });

  it.each([
    [429, "rate_limit"],
    [500, "server"],
    [503, "overloaded"],
  ])("a %i that persists fails after four attempts in all, saying so", async (status, kind) => {
    server = await failing(status, 99);
    const err = await rejection(provider(server.url).request(ask()));
    expect(err.kind).toBe(kind);
    expect(err.status).toBe(status);
    expect(err.attempts).toBe(4);
    expect(err.message).toContain("gave up after 4 attempts");
    expect(server.received).toHaveLength(4);
  });

  it("makes no more attempts than maxAttempts says", async () => {
    server = await failing(503, 99);
    const err = await rejection(provider(server.url, { maxAttempts: 2 }).request(ask()));
    expect(err.attempts).toBe(2);
    expect(server.received).toHaveLength(2);
  });

  it("caps the backoff at 30 seconds", async () => {
    server = await failing(500, 99);
    const { sleep, delays } = fakeSleep();
    await rejection(provider(server.url, { sleep, random: () => 0.999999, maxAttempts: 8 }).request(ask()));
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });

  it("waits what Retry-After says, in seconds", async () => {
    server = await failing(429, 2, { "retry-after": "7" });
    const { sleep, delays } = fakeSleep();
    await provider(server.url, { sleep }).request(ask());
    expect(delays).toEqual([7000, 7000]);
  });

  it("waits what Retry-After says as an HTTP date", async () => {
    const at = new Date(Date.now() + 20_000).toUTCString();
    server = await failing(503, 1, { "retry-after": at });
    const { sleep, delays } = fakeSleep();
    await provider(server.url, { sleep }).request(ask());
    expect(delays).toHaveLength(1);
    expect(delays[0]).toBeGreaterThan(15_000);
    expect(delays[0]).toBeLessThanOrEqual(20_000);
  });

  it("does not wait for a Retry-After above 60 seconds: it fails saying when to retry", async () => {
    server = await failing(429, 99, { "retry-after": "300" });
    const { sleep, delays } = fakeSleep();
    const err = await rejection(provider(server.url, { sleep }).request(ask()));
    expect(delays).toEqual([]);
    expect(err.kind).toBe("rate_limit");
    expect(err.attempts).toBe(1);
    expect(err.message).toMatch(/wait 300 s.*retry after \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/);
  });

  it("never shows the API key, even when the server echoes it back", async () => {
    for (const status of [400, 401, 402, 422, 429]) {
      server = await failing(status, 99, {}, `Authentication Fails, your api key: ${KEY} is invalid`);
      const { deltas, onDelta } = collector();
      const err = await rejection(provider(server.url).request(ask(), { onDelta }));
      expect(err.message).not.toContain(KEY);
      expect(err.message).toContain("[redacted key]");
      expect(JSON.stringify(deltas)).not.toContain(KEY);
      expect(String(err.stack)).not.toContain(KEY);
      await server.close();
      server = undefined;
    }
  });

  it("does not retry other statuses and names the base URL on a 404", async () => {
    server = await failing(404, 99, {}, "Not Found");
    const err = await rejection(provider(server.url + "/v9").request(ask()));
    expect(err.kind).toBe("config");
    expect(err.message).toContain(`${server.url}/v9/chat/completions`);
    expect(err.attempts).toBe(1);
  });
});
