// What reaches the session file while a session runs: each call's result when the call ends,
// a fresh line after someone else's torn write, and a file deleted under the writer noticed.
import { afterEach, describe, expect, it } from "vitest";
import { appendFileSync, existsSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import type { StreamEvent, ToolSpec } from "../../src/contract/index.js";
import { answerOrphans, replay, INTERRUPTED_RESULT } from "../../src/core/session/replay.js";
import { chatBodies } from "../helpers/extension.js";
import { complete, startHarness, type Harness } from "../helpers/harness.js";
import { testTools } from "../helpers/tools.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A tool that finishes only when the test lets it (by name: `Wait` with `{gate}`). */
function gated(concurrent: boolean): { tool: ToolSpec; open(gate: string): void; started: Set<string> } {
  const waiting = new Map<string, () => void>();
  const started = new Set<string>();
  const opened = new Set<string>();
  return {
    started,
    open(gate) {
      opened.add(gate);
      waiting.get(gate)?.();
    },
    tool: {
      name: "Wait",
      description: "Waits.",
      inputSchema: { type: "object", properties: { gate: { type: "string" } }, required: ["gate"] },
      readOnly: true,
      concurrent,
      run: async (input) => {
        const gate = String(input.gate);
        started.add(gate);
        if (!opened.has(gate)) await new Promise<void>((r) => waiting.set(gate, r));
        return { content: `passed ${gate}` };
      },
    },
  };
}

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(cond()).toBe(true);
}

/** The log a new process would resume from the file as it is now. */
function resumedLog(): ReturnType<typeof answerOrphans>["messages"] {
  const state = replay(h!.store.load(h!.engine.sessionId));
  return answerOrphans(state.messages, state.results).messages;
}

const call = (gate: string) => ({ name: "Wait", arguments: { gate } });

describe("each call's result reaches the session file when the call ends", () => {
  it("keeps a finished call's result when the process dies while a later call of the batch runs", async () => {
    const g = gated(false);
    h = await startHarness({ script: { replies: [{ tool_calls: [call("a"), call("b")] }, { content: "done" }] }, tools: [g.tool], allowAll: true });
    g.open("a");
    const turn = h.turn("go");
    await until(() => g.started.has("b"));
    // A kill -9 now: what would a resume see?
    const tools = resumedLog().filter((m) => m.role === "tool");
    expect(tools.map((m) => m.content)).toEqual(["passed a", INTERRUPTED_RESULT]);
    g.open("b");
    expect(complete(await turn).stopReason).toBe("completed");
  });

  it("keeps a concurrent call that finished before an earlier one, and the log order stays the declared order", async () => {
    const g = gated(true);
    h = await startHarness({ script: { replies: [{ tool_calls: [call("a"), call("b")] }, { content: "done" }] }, tools: [g.tool], allowAll: true });
    g.open("b");
    const turn = h.turn("go");
    await until(() => g.started.has("a") && resumedLog().some((m) => m.role === "tool" && m.content === "passed b"));
    // b finished first; a kill -9 now keeps b's result, in b's place.
    const log = resumedLog();
    const calls = log.find((m) => m.role === "assistant")!;
    const ids = (calls as { tool_calls: Array<{ id: string }> }).tool_calls.map((c) => c.id);
    const results = log.filter((m) => m.role === "tool") as Array<{ tool_call_id: string; content: string }>;
    expect(results.map((r) => [r.tool_call_id, r.content])).toEqual([
      [ids[0], INTERRUPTED_RESULT],
      [ids[1], "passed b"],
    ]);
    g.open("a");
    expect(complete(await turn).stopReason).toBe("completed");
    // The request after the batch sends the results in the declared order.
    const body = chatBodies(h.sim.requests).pop()!;
    expect(body.messages.filter((m) => m.role === "tool").map((m) => m.content)).toEqual(["passed a", "passed b"]);
    // And a resume sends exactly what this process would have.
    h.sim.setScript({ replies: [{ content: "again" }] });
    const before = body.messages.map((m) => JSON.stringify(m));
    await h.resume();
    await h.turn("more");
    const next = chatBodies(h.sim.requests).pop()!;
    expect(next.messages.slice(0, before.length).map((m) => JSON.stringify(m))).toEqual(before);
  });
});

describe("the session file under the writer", () => {
  it("starts the next record on a fresh line after another writer's torn line", async () => {
    h = await startHarness({ script: { default: { content: "ok" } }, tools: testTools(), allowAll: true });
    await h.turn("one");
    appendFileSync(h.store.fileOf(h.engine.sessionId), '{"t":"msg","m":{"role":"us');
    await h.turn("two");
    const loaded = h.store.load(h.engine.sessionId);
    expect(loaded.records.filter((r) => r.t === "damaged")).toHaveLength(1);
    const prompts = loaded.records.flatMap((r) => (r.t === "turn" ? [r.prompt] : []));
    expect(prompts).toEqual(["one", "two"]);
  });

  it("notices a transcript deleted mid-session, says so, and writes it again with the conversation so far", async () => {
    h = await startHarness({ script: { default: { content: "ok" } }, tools: testTools(), allowAll: true });
    await h.turn("one");
    const file = h.store.fileOf(h.engine.sessionId);
    unlinkSync(file);
    const events: StreamEvent[] = await h.turn("two");
    const notice = events.find((e) => e.type === "notice" && e.code === "session-file");
    expect(notice && "message" in notice ? notice.message : "").toMatch(/was deleted while this session ran; it was written again/);
    expect(existsSync(file)).toBe(true);
    const sent = chatBodies(h.sim.requests).pop()!.messages.map((m) => JSON.stringify(m));
    h.sim.setScript({ replies: [{ content: "three" }] });
    await h.resume();
    await h.turn("three");
    const next = chatBodies(h.sim.requests).pop()!.messages.map((m) => JSON.stringify(m));
    expect(next.slice(0, sent.length)).toEqual(sent);
    expect(readFileSync(file, "utf8")).toContain('"prompt":"two"');
  });

  it("notices a transcript replaced mid-session (an editor's save: a new file renamed over it) and goes on in the new file", async () => {
    h = await startHarness({ script: { default: { content: "ok" } }, tools: testTools(), allowAll: true });
    await h.turn("one");
    const file = h.store.fileOf(h.engine.sessionId);
    writeFileSync(`${file}.tmp`, readFileSync(file, "utf8").split("\n").slice(0, 2).join("\n")); // the first lines only, no newline at the end
    renameSync(`${file}.tmp`, file);
    const events: StreamEvent[] = await h.turn("two");
    expect(events.some((e) => e.type === "notice" && e.code === "session-file" && /was replaced by another file/.test(e.message))).toBe(true);
    const sent = chatBodies(h.sim.requests).pop()!.messages.map((m) => JSON.stringify(m));
    h.sim.setScript({ replies: [{ content: "three" }] });
    await h.resume();
    await h.turn("three");
    const next = chatBodies(h.sim.requests).pop()!.messages.map((m) => JSON.stringify(m));
    expect(next.slice(0, sent.length)).toEqual(sent);
  });
});
