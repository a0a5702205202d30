import { afterEach, describe, expect, it } from "vitest";
import { startHarness, complete, type Harness } from "../helpers/harness.js";
import type { ToolSpec } from "../../src/contract/index.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function instrumented(log: string[]): ToolSpec[] {
  let running = 0;
  const track = async (name: string, ms: number) => {
    running++;
    log.push(`start ${name} (running ${running})`);
    await new Promise((r) => setTimeout(r, ms));
    running--;
    log.push(`end ${name}`);
  };
  return [
    {
      name: "Look",
      description: "read-only, slow",
      inputSchema: { type: "object", properties: { id: { type: "string" }, ms: { type: "number" } }, required: ["id", "ms"] },
      readOnly: true,
      run: async (i) => {
        await track(String(i.id), Number(i.ms));
        return { content: `looked ${String(i.id)}` };
      },
    },
    {
      name: "Change",
      description: "mutating",
      inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
      readOnly: false,
      run: async (i) => {
        await track(String(i.id), 10);
        return { content: `changed ${String(i.id)}` };
      },
    },
  ];
}

describe("tool calls are scheduled by what they do", () => {
  it("runs read-only neighbours concurrently, treats a mutating call as a barrier, and answers in declared order", async () => {
    const log: string[] = [];
    const call = (name: string, args: object) => ({ name, arguments: args });
    h = await startHarness({
      script: {
        replies: [
          { tool_calls: [call("Look", { id: "a", ms: 80 }), call("Look", { id: "b", ms: 10 }), call("Change", { id: "c" }), call("Look", { id: "d", ms: 30 }), call("Look", { id: "e", ms: 5 })] },
          { content: "done" },
        ],
      },
      tools: instrumented(log),
      allowAll: true,
    });
    expect(complete(await h.turn("go")).stopReason).toBe("completed");
    // a and b overlap; c starts only after both ended; d and e start after c ended.
    expect(log.indexOf("start b (running 2)")).toBeGreaterThan(-1);
    expect(log.indexOf("start c (running 1)")).toBeGreaterThan(Math.max(log.indexOf("end a"), log.indexOf("end b")));
    expect(log.indexOf("start d (running 1)")).toBeGreaterThan(log.indexOf("end c"));
    expect(log.indexOf("end b")).toBeLessThan(log.indexOf("end a")); // b finished first…
    const results = h.engine.messages.filter((m) => m.role === "tool").map((m) => m.content);
    expect(results).toEqual(["looked a", "looked b", "changed c", "looked d", "looked e"]); // …yet a's result comes first
  });

  it("runs at most the configured number of read-only calls at once", async () => {
    const log: string[] = [];
    const calls = Array.from({ length: 6 }, (_, k) => ({ name: "Look", arguments: { id: `r${k}`, ms: 20 } }));
    h = await startHarness({ script: { replies: [{ tool_calls: calls }, { content: "done" }] }, tools: instrumented(log), allowAll: true, engine: { concurrency: 2 } });
    await h.turn("go");
    const peak = Math.max(...log.filter((l) => l.startsWith("start")).map((l) => Number(/running (\d+)/.exec(l)![1])));
    expect(peak).toBe(2);
  });
});

describe("errors are data the model can read", () => {
  it("turns invalid arguments into an error result saying what to fix, and the tool does not run", async () => {
    const log: string[] = [];
    h = await startHarness({ script: { replies: [{ tool_calls: [{ name: "Look", arguments: { id: 7 } }] }, { content: "ok" }] }, tools: instrumented(log), allowAll: true });
    const events = await h.turn("go");
    const end = events.find((e) => e.type === "tool.end");
    expect(end).toMatchObject({ output: { isError: true, content: expect.stringMatching(/^Invalid arguments for Look: ms is required \(number\); id must be string, got number 7\. Required: id, ms\./) } });
    expect(log).toEqual([]);
  });

  it("coerces a number the model quoted instead of failing the call", async () => {
    const log: string[] = [];
    h = await startHarness({ script: { replies: [{ tool_calls: [{ name: "Look", arguments: { id: "x", ms: "5" } }] }, { content: "ok" }] }, tools: instrumented(log), allowAll: true });
    await h.turn("go");
    expect(log).toEqual(["start x (running 1)", "end x"]);
  });

  it("turns a tool that throws into an error result, and the turn goes on", async () => {
    const throwing: ToolSpec = { name: "Boom", description: "throws", inputSchema: { type: "object" }, readOnly: true, run: async () => { throw new Error("disk on fire"); } };
    h = await startHarness({ script: { replies: [{ tool_calls: [{ name: "Boom", arguments: {} }] }, { content: "recovered" }] }, tools: [throwing], allowAll: true });
    const events = await h.turn("go");
    expect(events.find((e) => e.type === "tool.end")).toMatchObject({ output: { isError: true, content: "Boom failed: disk on fire" } });
    expect(complete(events)).toMatchObject({ stopReason: "completed", text: "recovered" });
  });

  it("answers a call to an unknown tool with the list of tools, denied by the gate", async () => {
    h = await startHarness({ script: { replies: [{ tool_calls: [{ name: "Teleport", arguments: {} }] }, { content: "ok" }] }, tools: instrumented([]), allowAll: true });
    const events = await h.turn("go");
    expect(events.find((e) => e.type === "tool.end")).toMatchObject({ output: { isError: true, content: "Unknown tool 'Teleport'. Available tools: Look, Change." } });
  });
});

describe("every call gets an answer, whatever throws on the way", () => {
  it("answers a call whose result a plugin refuses, and the next turn is accepted by the API", async () => {
    const { DeniedError } = await import("../../src/contract/index.js");
    h = await startHarness({ script: { replies: [{ tool_calls: [{ name: "Look", arguments: { id: "x", ms: 1 } }] }, { content: "after" }, { content: "next turn" }] }, tools: instrumented([]), allowAll: true });
    h.chain.on("user", "strict-plugin", "tool.result", null, () => {
      throw new DeniedError("this result may not enter the log", "strict-plugin");
    });
    const events = await h.turn("go");
    expect(events.find((e) => e.type === "tool.end")).toMatchObject({ output: { isError: true, content: "Look did not complete: this result may not enter the log" } });
    expect(complete(events).stopReason).toBe("completed");
    expect(complete(await h.turn("again")).stopReason).toBe("completed");
  });
});
