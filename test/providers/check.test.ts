import { afterEach, describe, expect, it } from "vitest";
import { KEY, provider, rawServer } from "./helpers.js";
import type { Handler, RawServer } from "./helpers.js";

let server: RawServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const json = (status: number, body: unknown): Handler => (_req, res) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
};

describe("the doctor's check", () => {
  it("asks DeepSeek for the balance with the key and reports it", async () => {
    server = await rawServer(
      json(200, { is_available: true, balance_infos: [{ currency: "CNY", total_balance: "110.00", granted_balance: "10.00", topped_up_balance: "100.00" }] }),
    );
    const r = await provider(server.url).check();
    expect(server.received[0]).toMatchObject({ method: "GET", url: "/user/balance" });
    expect(server.received[0].headers.authorization).toBe(`Bearer ${KEY}`);
    expect(r).toEqual({ ok: true, status: 200, message: "key from DEEPSEEK_API_KEY accepted; balance 110.00 CNY" });
  });

  it("reports an exhausted balance as not ok", async () => {
    server = await rawServer(json(200, { is_available: false, balance_infos: [] }));
    const r = await provider(server.url).check();
    expect(r.ok).toBe(false);
    expect(r.message).toMatch(/balance is exhausted: top up/);
  });

  it("reports a rejected key, naming where it came from and never the key", async () => {
    server = await rawServer(json(401, { error: { message: `bad key ${KEY}` } }));
    const r = await provider(server.url, { keySource: "~/.deepcode/credentials" }).check();
    expect(r.ok).toBe(false);
    expect(r.status).toBe(401);
    expect(r.message).toMatch(/API key rejected \(key from ~\/\.deepcode\/credentials\)/);
    expect(r.message).not.toContain(KEY);
  });

  it("falls back to /models for a vendor without a balance endpoint", async () => {
    server = await rawServer((req, res, n) =>
      n === 0 ? json(404, { error: { message: "no" } })(req, res, n) : json(200, { object: "list", data: [{ id: "a" }, { id: "b" }] })(req, res, n),
    );
    const r = await provider(server.url + "/v1").check();
    expect(server.received.map((q) => q.url)).toEqual(["/v1/user/balance", "/v1/models"]);
    expect(r).toEqual({ ok: true, status: 200, message: "key from DEEPSEEK_API_KEY accepted; 2 models available" });
  });

  it("checks DeepSeek's Anthropic endpoint through the account's balance", async () => {
    server = await rawServer(json(200, { is_available: true, balance_infos: [{ currency: "USD", total_balance: "3.50" }] }));
    const r = await provider(server.url + "/anthropic", { protocol: "anthropic" }).check();
    expect(server.received[0].url).toBe("/user/balance");
    expect(r.ok).toBe(true);
  });

  it("checks another Anthropic-protocol vendor with GET /v1/models and x-api-key", async () => {
    server = await rawServer(json(200, { data: [{ id: "m" }] }));
    const r = await provider(server.url, { protocol: "anthropic" }).check();
    expect(server.received[0].url).toBe("/v1/models");
    expect(server.received[0].headers["x-api-key"]).toBe(KEY);
    expect(r.ok).toBe(true);
  });

  it("never throws: an unreachable endpoint is a result that says so", async () => {
    server = await rawServer(json(200, {}));
    const url = server.url;
    await server.close();
    server = undefined;
    const r = await provider(url).check();
    expect(r.ok).toBe(false);
    expect(r.message).toMatch(/connection to 127\.0\.0\.1 failed \(ECONNREFUSED\)/);
  });
});
