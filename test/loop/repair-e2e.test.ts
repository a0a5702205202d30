import { afterEach, describe, expect, it } from "vitest";
import { startHarness, complete, type Harness } from "../helpers/harness.js";
import { dsml, jsonToolCallText, type ScriptEntry } from "../sim/server.mjs";
import type { StreamEvent, ToolSpec } from "../../src/contract/index.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function recordingRead(runs: string[]): ToolSpec {
  return {
    name: "Read",
    description: "read a file",
    inputSchema: { type: "object", properties: { file_path: { type: "string" }, limit: { type: "number" } }, required: ["file_path"] },
    readOnly: true,
    run: async (i) => {
      runs.push(`${String(i.file_path)}${i.limit !== undefined ? `:${String(i.limit)}` : ""}`);
      return { content: "file text" };
    },
  };
}

async function runWith(first: ScriptEntry): Promise<{ runs: string[]; events: StreamEvent[] }> {
  const runs: string[] = [];
  h = await startHarness({ script: { replies: [first, { content: "done" }] }, tools: [recordingRead(runs)], allowAll: true });
  const events = await h.turn("read a.ts");
  expect(complete(events).stopReason).toBe("completed");
  return { runs, events };
}

const repairs = (events: StreamEvent[]) => events.filter((e) => e.type === "repair").map((e) => (e as { kind: string }).kind);

describe("malformed tool calls from the model end in the right tool running once", () => {
  it("scavenges DSML markup with full-width bars split across stream chunks", async () => {
    const { runs, events } = await runWith({ content: `Let me look.\n${dsml([{ name: "Read", params: { file_path: "a.ts" } }])}`, chunkSize: 3 });
    expect(runs).toEqual(["a.ts"]);
    expect(repairs(events)).toEqual(["scavenged-dsml"]);
  });

  it("scavenges DSML markup with ASCII bars and a JSON-typed parameter", async () => {
    const { runs } = await runWith({ content: dsml([{ name: "Read", params: { file_path: "b.ts", limit: 5 } }], { ascii: true }) });
    expect(runs).toEqual(["b.ts:5"]);
  });

  it("scavenges a JSON tool call written in the reasoning when the reply has no content", async () => {
    const { runs, events } = await runWith({ reasoning: `I will call ${jsonToolCallText([{ name: "Read", arguments: { file_path: "c.ts" } }])}`, content: "" });
    expect(runs).toEqual(["c.ts"]);
    expect(repairs(events)).toEqual(["scavenged-json-reasoning"]);
  });

  it("repairs argument JSON followed by garbage", async () => {
    const { runs, events } = await runWith({ tool_calls: [{ name: "Read", raw_arguments: '{"file_path": "d.ts"}}' }] });
    expect(runs).toEqual(["d.ts"]);
    expect(repairs(events)).toEqual(["json-repaired"]);
  });

  it("refuses arguments cut off by the output limit, and the model is asked to send the call again", async () => {
    const { runs, events } = await runWith({ tool_calls: [{ name: "Read", raw_arguments: '{"file_path": "e.t' }], finish_reason: "length" });
    expect(runs).toEqual([]);
    expect(events.find((e) => e.type === "tool.end")).toMatchObject({ output: { isError: true, content: expect.stringMatching(/cut off by the output limit/) } });
  });

  it("suppresses the same call repeated a third time within six calls", async () => {
    const runs: string[] = [];
    const same = { tool_calls: [{ name: "Read", arguments: { file_path: "f.ts" } }] };
    h = await startHarness({ script: { replies: [same, same, same, { content: "stopped" }] }, tools: [recordingRead(runs)], allowAll: true });
    const events = await h.turn("loop");
    expect(runs).toEqual(["f.ts", "f.ts"]);
    expect(repairs(events)).toEqual(["call-storm"]);
    expect(complete(events).stopReason).toBe("completed");
  });
});

describe("what the person sees while a reply with markup streams", () => {
  const shown = (events: StreamEvent[], step = 1) =>
    events.filter((e) => e.type === "model.delta" && e.step === step && e.delta.kind === "content").map((e) => (e as { delta: { text: string } }).delta.text).join("");

  it("never shows markup that became a call, and shows the prose around it", async () => {
    const { events } = await runWith({ content: `Let me look.\n${dsml([{ name: "Read", params: { file_path: "a.ts" } }])}\nBack soon.`, chunkSize: 3 });
    const text = shown(events);
    expect(text).not.toMatch(/DSML|invoke|｜/);
    expect(text).toContain("Let me look.");
    expect(text).toContain("Back soon.");
  });

  it("shows markup that was not taken as a call once the reply is judged, so nothing is lost", async () => {
    const runs: string[] = [];
    const content = `An example:\n\`\`\`\n${dsml([{ name: "Read", params: { file_path: "x.ts" } }])}\n\`\`\`\nand unknown: ${dsml([{ name: "Nope", params: { a: "1" } }])}`;
    h = await startHarness({ script: { replies: [{ content, chunkSize: 5 }] }, tools: [recordingRead(runs)], allowAll: true });
    const events = await h.turn("show me");
    expect(runs).toEqual([]);
    expect(shown(events)).toBe(content);
    expect(complete(events).text).toBe(content);
  });
});
