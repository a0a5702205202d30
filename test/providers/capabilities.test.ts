import { describe, expect, it } from "vitest";
import { ProviderError } from "../../src/contract/index.js";
import { ENDPOINTS, capsFor, createProvider } from "../../src/providers/index.js";

describe("the capability table", () => {
  it.each([
    ["deepseek-flash", "deepseek-flash", true],
    ["deepseek-v4-flash", "deepseek-flash", true],
    ["deepseek-reasoner", "deepseek-flash", true],
    ["deepseek-chat", "deepseek-flash", false],
    ["deepseek-v4-pro", "deepseek-v4-pro", true],
  ])("knows %s: family %s, thinking by default %s", (model, family, thinking) => {
    expect(capsFor(model)).toEqual({
      model,
      family,
      protocol: "openai",
      thinkingByDefault: thinking,
      reasoningBackWithTools: true,
      reminderRole: true,
      contextWindow: 1_000_000,
      maxOutput: 384_000,
    });
  });

  it("assumes nothing of a model it does not know", () => {
    expect(capsFor("gpt-something")).toMatchObject({
      model: "gpt-something",
      thinkingByDefault: false,
      reasoningBackWithTools: false,
      reminderRole: false,
      contextWindow: 128_000,
    });
  });

  it("lists DeepSeek's two endpoints as config rows", () => {
    expect(ENDPOINTS.map(({ id, baseUrl, keyEnv, protocol }) => ({ id, baseUrl, keyEnv, protocol }))).toEqual([
      { id: "deepseek", baseUrl: "https://api.deepseek.com", keyEnv: "DEEPSEEK_API_KEY", protocol: "openai" },
      { id: "deepseek-anthropic", baseUrl: "https://api.deepseek.com/anthropic", keyEnv: "DEEPSEEK_API_KEY", protocol: "anthropic" },
    ]);
    for (const row of ENDPOINTS) expect(row.models).toContain("deepseek-flash");
  });
});

describe("the base URL", () => {
  const make = (baseUrl: string) => () => createProvider({ baseUrl, apiKey: "sk-x", keySource: "test", env: {} });

  it("refuses plain http:// for a host that is not this machine, saying why", () => {
    let err: unknown;
    try {
      make("http://api.deepseek.com")();
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).kind).toBe("config");
    expect((err as ProviderError).message).toMatch(/http:\/\/api\.deepseek\.com.*unencrypted; use https:\/\//);
  });

  it("accepts https anywhere and http for loopback hosts", () => {
    for (const ok of ["https://api.deepseek.com", "http://127.0.0.1:8080", "http://localhost:1", "http://[::1]:9/v1", "http://127.1.2.3"]) {
      expect(make(ok)).not.toThrow();
    }
  });

  it("refuses what is not an http(s) URL", () => {
    expect(make("api.deepseek.com")).toThrow(/not a URL/);
    expect(make("ftp://api.deepseek.com")).toThrow(/must use https/);
  });
});
