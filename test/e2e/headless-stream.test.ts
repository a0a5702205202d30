import { afterEach, describe, expect, it } from "vitest";
import { call, cliRig, type CliRig } from "./helpers.js";

let rig: CliRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

type Line = Record<string, unknown> & { type: string; subtype?: string; message?: { id?: string; content: Array<Record<string, unknown>> }; event?: Record<string, unknown> };

const blocks = (lines: Line[], type: string): Array<Record<string, unknown>> =>
  lines.filter((l) => l.type === "assistant" || l.type === "user").flatMap((l) => l.message?.content ?? []).filter((b) => b.type === type);

describe("deepcode -p --output-format stream-json prints Claude Code's message stream", () => {
  it("starts with system/init, then assistant messages with tool_use, user messages with tool_result, and the result last", async () => {
    rig = await cliRig({ replies: [{ content: "Reading.", ...call("Read", { file_path: "a.txt" }) }, { content: "It says alpha." }] }, { "a.txt": "alpha\n" });
    const r = await rig.run(["-p", "read a.txt", "--output-format", "stream-json"]);
    expect(r.code).toBe(0);
    const lines = rig.lines(r) as Line[];
    expect(lines[0]).toMatchObject({ type: "system", subtype: "init", cwd: rig.env.root, model: "deepseek-flash", mcp_servers: [], permissionMode: "default", apiKeySource: "DEEPSEEK_API_KEY" });
    expect(lines[0].tools).toEqual(expect.arrayContaining(["Read", "Write", "Edit", "Bash", "Glob", "Grep"]));
    const use = blocks(lines, "tool_use");
    expect(use).toEqual([{ type: "tool_use", id: expect.stringMatching(/^call_/), name: "Read", input: { file_path: "a.txt" } }]);
    const result = blocks(lines, "tool_result");
    expect(result).toEqual([{ type: "tool_result", tool_use_id: use[0].id, content: expect.stringContaining("alpha"), is_error: false }]);
    expect(blocks(lines, "text").map((b) => b.text)).toEqual(["Reading.", "It says alpha."]);
    expect(lines.at(-1)).toMatchObject({ type: "result", subtype: "success", result: "It says alpha.", num_turns: 2 });
    // The reply's text and its tool call are one message: they share message.id.
    const ids = lines.filter((l) => l.type === "assistant" && l.message?.content.some((b) => b.type !== "thinking")).map((l) => l.message?.id);
    expect(ids[0]).toBe(ids[1]);
    expect(ids[2]).not.toBe(ids[0]);
  });

  it("puts session_id (never sessionId) on every line, and deepcode's own facts in a field of their own", async () => {
    rig = await cliRig({ default: { content: "hello" } });
    const lines = rig.lines(await rig.run(["-p", "hi", "--output-format", "stream-json"])) as Line[];
    const id = lines[0].session_id;
    expect(id).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6}$/);
    for (const l of lines) {
      expect(l.session_id).toBe(id);
      expect(l).not.toHaveProperty("sessionId");
      expect(l.uuid).toMatch(/^[0-9a-f-]{36}$/);
    }
    const reply = lines.find((l) => l.type === "assistant" && l.message?.content[0].type === "text") as Line & { deepcode: Record<string, number>; message: { usage: Record<string, number> } };
    expect(reply.deepcode).toMatchObject({ step: 1, cache_hit_tokens: expect.any(Number), cache_miss_tokens: expect.any(Number), cost_usd: expect.any(Number) });
    expect(reply.message.usage).toMatchObject({ input_tokens: reply.deepcode.cache_miss_tokens, cache_read_input_tokens: reply.deepcode.cache_hit_tokens });
  });

  it("adds the streamed deltas as stream_event lines with --include-partial-messages or --verbose, and not without", async () => {
    rig = await cliRig({ default: { content: "a streamed answer", chunkSize: 4 } });
    for (const flag of ["--include-partial-messages", "--verbose"]) {
      const lines = rig.lines(await rig.run(["-p", "hi", "--output-format", "stream-json", flag])) as Line[];
      const events = lines.filter((l) => l.type === "stream_event").map((l) => l.event as Record<string, unknown>);
      expect(events[0]).toMatchObject({ type: "message_start", message: { role: "assistant" } });
      const text = events.filter((e) => (e.delta as { type?: string })?.type === "text_delta").map((e) => (e.delta as { text: string }).text).join("");
      expect(text).toBe("a streamed answer");
      expect(events.at(-1)).toEqual({ type: "message_stop" });
      expect(events.some((e) => e.type === "message_delta" && (e.delta as { stop_reason: string }).stop_reason === "end_turn")).toBe(true);
    }
    const plain = rig.lines(await rig.run(["-p", "hi", "--output-format", "stream-json"])) as Line[];
    expect(plain.filter((l) => l.type === "stream_event")).toEqual([]);
  });

  it("says a repaired call and a notice as system lines of their own subtype", async () => {
    rig = await cliRig({ replies: [call("Read", { file_path: "a.txt" }), call("Read", { file_path: "a.txt" }), call("Read", { file_path: "a.txt" }), { content: "done" }] }, { "a.txt": "x" });
    const lines = rig.lines(await rig.run(["-p", "read it", "--output-format", "stream-json"])) as Line[];
    expect(lines.filter((l) => l.type === "system").map((l) => l.subtype)).toEqual(expect.arrayContaining(["init", "repair"]));
    const results = blocks(lines, "tool_result");
    expect(results.at(-1)).toMatchObject({ is_error: true });
    const last = lines.filter((l) => l.type === "user").at(-1) as Line & { deepcode: { outcome: string } };
    expect(last.deepcode.outcome).toBe("suppressed");
  });

  it("prints one result line with is_error when there is no API key", async () => {
    rig = await cliRig({ default: { content: "never" } });
    const r = await rig.run(["-p", "hi", "--output-format", "stream-json"], { env: { DEEPSEEK_API_KEY: undefined } });
    expect(r.code).toBe(1);
    const lines = rig.lines(r);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ type: "result", is_error: true, subtype: "error_during_execution" });
  });
});

describe("deepcode -p --input-format stream-json holds a conversation in one process", () => {
  const user = (text: unknown) => JSON.stringify({ type: "user", message: { role: "user", content: text } });

  it("runs each user message on stdin as a turn of one session, with a result line after each", async () => {
    rig = await cliRig({ replies: [{ content: "first answer" }, { content: "second answer" }] });
    const stdin = `${user("first question")}\n\n${user([{ type: "text", text: "second question" }])}\n`;
    const r = await rig.run(["-p", "--input-format", "stream-json", "--output-format", "stream-json"], { stdin });
    expect(r.code).toBe(0);
    const lines = rig.lines(r) as Line[];
    const results = lines.filter((l) => l.type === "result");
    expect(results.map((l) => l.result)).toEqual(["first answer", "second answer"]);
    expect(new Set(lines.map((l) => l.session_id)).size).toBe(1);
    expect(lines.filter((l) => l.subtype === "init")).toHaveLength(1);
    const last = rig.sim.requests.at(-1)!.json as { messages: Array<{ role: string; content: string }> };
    expect(last.messages.filter((m) => m.role === "user").map((m) => m.content)).toEqual(["first question", "second question"]);
  });

  it("answers a line that is not a user message with an error result and goes on with the next", async () => {
    rig = await cliRig({ default: { content: "fine" } });
    const stdin = `not json\n${JSON.stringify({ type: "assistant" })}\n${user("a real one")}\n`;
    const r = await rig.run(["-p", "--input-format", "stream-json", "--output-format", "stream-json"], { stdin });
    expect(r.code).toBe(1);
    const results = rig.lines(r).filter((l) => l.type === "result");
    expect(results.map((l) => l.is_error)).toEqual([true, true, false]);
    expect((results[0].errors as string[])[0]).toMatch(/^stdin line 1 is not JSON/);
    expect((results[1].errors as string[])[0]).toMatch(/^stdin line 2 is not a user message/);
    expect(results[2].result).toBe("fine");
  });

  it("needs --output-format stream-json and no prompt argument (a usage error otherwise)", async () => {
    rig = await cliRig({ default: { content: "x" } });
    const a = await rig.run(["-p", "--input-format", "stream-json"]);
    expect(a.code).toBe(2);
    expect(a.stderr).toBe("deepcode: --input-format stream-json needs -p and --output-format stream-json\n");
    const b = await rig.run(["-p", "also a prompt", "--input-format", "stream-json", "--output-format", "stream-json"]);
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/the prompts come as JSON lines on stdin/);
  });
});
