import { afterEach, describe, expect, it } from "vitest";
import { startHarness, complete, type Harness } from "../helpers/harness.js";
import { testTools } from "../helpers/tools.js";
import { chatBodies } from "../helpers/extension.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe("a resumed session sends what the earlier process would have sent", () => {
  it("extends the last request of the earlier process byte for byte, and hits its cache", async () => {
    h = await startHarness({
      script: {
        replies: [
          { tool_calls: [{ name: "Echo", arguments: { text: "one" } }] },
          { content: "first answer" },
          { content: "second answer" },
          { content: "third answer" },
        ],
      },
      tools: testTools(),
      allowAll: true,
    });
    await h.turn("first question");
    await h.turn("second question");
    const before = chatBodies(h.sim.requests);
    const fingerprint = h.engine.prefix.fingerprint;

    const resumed = await h.resume();
    expect(resumed.prefix.fingerprint).toBe(fingerprint);
    const end = complete(await h.turn("third question"));
    expect(end.stopReason).toBe("completed");

    const after = chatBodies(h.sim.requests);
    const second = before[before.length - 1];
    const third = after[after.length - 1];
    expect(JSON.stringify(third.tools)).toBe(JSON.stringify(second.tools));
    expect(third.messages.slice(0, second.messages.length).map((m) => JSON.stringify(m))).toEqual(second.messages.map((m) => JSON.stringify(m)));
    expect(third.messages[second.messages.length]).toMatchObject({ role: "assistant", content: "second answer" });
    const usage = h.sim.requests.filter((r) => r.status === 200).map((r) => r.usage!);
    expect(usage[usage.length - 1].prompt_cache_hit_tokens).toBeGreaterThanOrEqual(Math.floor(usage[usage.length - 2].prompt_tokens / 64) * 64);
  });

  it("keeps the stored tool definitions when this deepcode describes its tools differently", async () => {
    // A newer deepcode with shorter tool descriptions must not rewrite a stored session's prefix.
    const tools = testTools();
    h = await startHarness({ script: { default: { content: "ok" } }, tools, allowAll: true });
    await h.turn("first question");
    const stored = JSON.stringify(chatBodies(h.sim.requests).pop()!.tools);
    const echo = tools.find((t) => t.name === "Echo")!;
    (echo as { description: string }).description = "Echo, described anew.";
    await h.resume();
    await h.turn("second question");
    expect(JSON.stringify(chatBodies(h.sim.requests).pop()!.tools)).toBe(stored);
    // A new session is built from the tools as they are now.
    const { Engine } = await import("../../src/core/engine/engine.js");
    const fresh = await Engine.start(h.options);
    expect(JSON.stringify(fresh.prefix.tools)).toContain("Echo, described anew.");
    await fresh.close();
  });

  it("answers tool calls that a killed process left unanswered, so the next request is valid", async () => {
    h = await startHarness({ script: { replies: [{ tool_calls: [{ name: "Echo", arguments: { text: "a" } }] }, { content: "done" }] }, tools: testTools(), allowAll: true });
    await h.turn("go");
    // Simulate a kill -9 between the assistant's call and its result: drop the result line.
    const { readFileSync, writeFileSync } = await import("node:fs");
    const file = h.store.fileOf(h.engine.sessionId);
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    const resultLine = lines.findIndex((l) => l.includes('"role":"tool"'));
    writeFileSync(file, `${lines.slice(0, resultLine).join("\n")}\n{"t":"msg","m":{"role":"to`);
    h.sim.setScript({ replies: [{ content: "after the crash" }] });
    const resumed = await h.resume();
    expect(resumed.startNotes.join("\n")).toMatch(/last line .* was torn/);
    expect(resumed.startNotes.join("\n")).toMatch(/1 tool call cut off by the last exit was answered as interrupted/);
    expect(complete(await h.turn("continue")).stopReason).toBe("completed");
    const last = chatBodies(h.sim.requests).pop()!;
    expect(last.messages.find((m) => m.role === "tool")).toMatchObject({ content: expect.stringMatching(/^Interrupted: deepcode stopped/) });
    // Resumed again: the record after the torn line was not glued to it, nothing is lost, and
    // the repaired log is sent the same way as before (a pure extension).
    h.sim.setScript({ replies: [{ content: "third time" }] });
    const again = await h.resume();
    // The old torn line stays in the file and is repaired the same way, but said only once.
    expect(again.startNotes.join("\n")).not.toMatch(/torn|interrupted/);
    expect(complete(await h.turn("and again")).stopReason).toBe("completed");
    const third = chatBodies(h.sim.requests).pop()!;
    expect(third.messages.slice(0, last.messages.length).map((m) => JSON.stringify(m))).toEqual(last.messages.map((m) => JSON.stringify(m)));
  });

  it("answers a call left unanswered in the middle of the log, right after the message that made it", async () => {
    const { answerOrphans } = await import("../../src/core/session/replay.js");
    const call = (id: string) => ({ id, type: "function" as const, function: { name: "Echo", arguments: "{}" } });
    const r = answerOrphans([
      { role: "user", content: "go" },
      { role: "assistant", content: null, tool_calls: [call("a"), call("b")] },
      { role: "tool", tool_call_id: "a", content: "done a" },
      { role: "user", content: "next" },
    ]);
    expect(r.answered).toBe(1);
    expect(r.messages.map((m) => (m.role === "tool" ? `tool:${m.tool_call_id}` : m.role))).toEqual(["user", "assistant", "tool:a", "tool:b", "user"]);
  });
});
