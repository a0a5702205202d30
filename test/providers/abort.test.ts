import { afterEach, describe, expect, it } from "vitest";
import { ProviderError } from "../../src/contract/index.js";
import { ask, chunk, collector, provider, rawServer, startStream, tick } from "./helpers.js";
import type { RawServer } from "./helpers.js";

let server: RawServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !cond(); i++) await tick(5);
  expect(cond()).toBe(true);
}

describe("cancelling a request", () => {
  it("rejects with 'aborted' and closes the connection when aborted before any content", async () => {
    server = await rawServer((_req, res) => startStream(res));
    const ctl = new AbortController();
    const pending = provider(server.url).request(ask(), { signal: ctl.signal });
    await until(() => server!.received.length === 1);
    ctl.abort();
    const err = await pending.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).kind).toBe("aborted");
    await until(() => server!.closedSockets() === 1);
  });

  it("keeps what arrived, marked incomplete, when aborted after content", async () => {
    server = await rawServer((_req, res) => {
      startStream(res);
      res.write(chunk({ content: "Half an answer" }));
    });
    const ctl = new AbortController();
    const { deltas, onDelta } = collector();
    const pending = provider(server.url).request(ask(), {
      signal: ctl.signal,
      onDelta: (d) => {
        onDelta(d);
        ctl.abort();
      },
    });
    const r = await pending;
    expect(deltas).toEqual([{ kind: "content", text: "Half an answer" }]);
    expect(r.message.content).toBe("Half an answer");
    expect(r.finishReason).toBeNull();
    expect(r.incomplete?.reason).toMatch(/^aborted/);
    await until(() => server!.closedSockets() === 1);
  });

  it("rejects at once for a signal that is already aborted, without connecting", async () => {
    server = await rawServer((_req, res) => startStream(res));
    const err = await provider(server.url)
      .request(ask(), { signal: AbortSignal.abort() })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect((err as ProviderError).kind).toBe("aborted");
    expect(server.received).toHaveLength(0);
  });

  it("ends the wait between attempts, even when the injected sleep ignores the signal", async () => {
    server = await rawServer((_req, res) => {
      res.writeHead(503);
      res.end();
    });
    const ctl = new AbortController();
    const never = () => new Promise<void>(() => undefined);
    const pending = provider(server.url, { sleep: never }).request(ask(), {
      signal: ctl.signal,
      onDelta: (d) => {
        if (d.kind === "retry") setTimeout(() => ctl.abort(), 5);
      },
    });
    const err = await pending.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((err as ProviderError).kind).toBe("aborted");
    expect((err as ProviderError).attempts).toBe(1);
  });
});
