// The closed schema every telemetry line is checked against before it is written: only its
// fields, each an enumeration, a number in range, a boolean, a registered tool or a known model.
// A line that does not conform is refused whole.
import { describe, expect, it } from "vitest";
import { checkTelemetryLine } from "../../src/contract/index.js";

const vocab = { tools: new Set(["Bash", "Read", "mcp__github__search"]), models: new Set(["deepseek-flash"]) };
const base = { v: 1, at: "2026-12-01T10:00:00.000Z", session: "20261201-100000-abc123" };

describe("the telemetry schema", () => {
  it("accepts each of the six events as the mod writes them", () => {
    const lines = [
      { ...base, event: "session_start", resumed: false, model: "deepseek-flash" },
      { ...base, event: "session_start", resumed: true, model: "other" },
      { ...base, event: "session_end", reason: "exit", turns: 3 },
      { ...base, event: "turn_complete", turn: 1, stop: "completed", steps: 2, cost_usd: 0.0012, cache_rate: 0.97, prompt_tokens: 9000, cached_tokens: 8730, completion_tokens: 120, duration_ms: 2400 },
      { ...base, event: "tool_call", tool: "mcp__github__search", outcome: "denied" },
      { ...base, event: "error", code: "rate_limit" },
      { ...base, event: "compaction", auto: true, ok: true, tokens_before: 100000, tokens_after: 12000 },
    ];
    for (const l of lines) expect(checkTelemetryLine(l, vocab)).toBeNull();
  });

  it("refuses any field it does not name, so nothing else can ride along", () => {
    expect(checkTelemetryLine({ ...base, event: "error", code: "auth", message: "invalid key sk-123" }, vocab)).toBe("message is not a field of error");
    expect(checkTelemetryLine({ ...base, event: "tool_call", tool: "Bash", outcome: "ok", command: "rm -rf /" }, vocab)).toBe("command is not a field of tool_call");
  });

  it("refuses a string that is not one of its event's values: a prompt, a path or a key cannot be a value", () => {
    expect(checkTelemetryLine({ ...base, event: "session_end", reason: "the user typed: my password is hunter2", turns: 1 }, vocab)).toMatch(/^reason /);
    expect(checkTelemetryLine({ ...base, event: "tool_call", tool: "/home/me/secret/plan.txt", outcome: "ok" }, vocab)).toMatch(/^tool /);
    expect(checkTelemetryLine({ ...base, event: "tool_call", tool: "Grep", outcome: "ok" }, vocab)).toBe("tool is not a registered tool"); // a good name the registry does not hold
    expect(checkTelemetryLine({ ...base, event: "session_start", resumed: false, model: "sk-live-0123456789" }, vocab)).toBe("model is not a known model");
    expect(checkTelemetryLine({ ...base, event: "error", code: "auth", session: "sk-abcdef" }, vocab)).toBe("session is not a session id");
    expect(checkTelemetryLine({ ...base, event: "error", code: "auth", at: "yesterday" }, vocab)).toBe("at is not a timestamp");
  });

  it("refuses numbers out of range, missing fields and unknown events or versions", () => {
    const turn = { ...base, event: "turn_complete", turn: 1, stop: "completed", steps: 2, cost_usd: 0.1, cache_rate: 0.5, prompt_tokens: 1, cached_tokens: 1, completion_tokens: 1, duration_ms: 1 };
    expect(checkTelemetryLine({ ...turn, cache_rate: 1.5 }, vocab)).toMatch(/^cache_rate /);
    expect(checkTelemetryLine({ ...turn, steps: -1 }, vocab)).toMatch(/^steps /);
    expect(checkTelemetryLine({ ...turn, turn: 1.5 }, vocab)).toMatch(/^turn /);
    expect(checkTelemetryLine({ ...turn, cost_usd: "0.1" }, vocab)).toMatch(/^cost_usd /);
    const { duration_ms: _gone, ...missing } = turn;
    expect(checkTelemetryLine(missing, vocab)).toMatch(/^duration_ms /);
    expect(checkTelemetryLine({ ...base, event: "prompt", text: "hi" }, vocab)).toBe("unknown event");
    expect(checkTelemetryLine({ ...base, v: 2, event: "error", code: "auth" }, vocab)).toBe("unknown version");
    expect(checkTelemetryLine("a line", vocab)).toBe("not an object");
  });
});

describe("the telemetry mod in a session", () => {
  it("records a compaction, manual or automatic, with its sizes", async () => {
    const { mkdtempSync, readFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const { startHarness } = await import("../helpers/harness.js");
    const telemetry = (await import("../../mods/telemetry/index.js")).default;
    const h = await startHarness({ script: { default: { content: "ok" } }, mods: [telemetry], settings: { user: { telemetry: true } }, facts: { models: ["deepseek-flash"] } });
    const file = join(h.home, "telemetry.jsonl");
    try {
      await h.engine.compact();
      const lines = readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l));
      expect(lines.at(-1)).toMatchObject({ event: "compaction", auto: false, ok: false, tokens_before: expect.any(Number), tokens_after: expect.any(Number) });
      for (const l of lines) expect(checkTelemetryLine(l, vocab)).toBeNull();
    } finally {
      await h.close();
    }
  });
});
