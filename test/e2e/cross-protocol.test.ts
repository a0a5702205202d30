// A session begun on one wire protocol and continued (`-c`) on the other (settings `protocol`):
// the log is OpenAI-shaped either way; what differs is what each endpoint accepts back. On the
// Anthropic protocol a thinking block must carry the signature the endpoint issued, so reasoning
// written on the OpenAI protocol (which has none) must not be sent as a thinking block; tool
// call ids and results must map both ways. The simulator enforces both protocols' rules.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { call, cliRig, type CliRig } from "./helpers.js";
import { signatureOf } from "../sim/anthropic.mjs";

let rig: CliRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

interface Block {
  type: string;
  thinking?: string;
  signature?: string;
  id?: string;
  tool_use_id?: string;
}
type Msg = { role: string; content: Block[] | string | null; tool_calls?: Array<{ id: string }>; tool_call_id?: string; reasoning_content?: string };

const useProtocol = (r: CliRig, protocol: "openai" | "anthropic"): void => writeFileSync(join(r.env.root, ".deepcode", "settings.json"), JSON.stringify({ protocol }));
const envFor = (r: CliRig, protocol: "openai" | "anthropic"): Record<string, string> => ({ DEEPSEEK_BASE_URL: protocol === "anthropic" ? `${r.sim.url}/anthropic` : r.sim.url });

describe("a session continued on the other protocol", () => {
  it("begun on openai, continued on anthropic: unsigned reasoning is not sent as a thinking block, tool ids and results carry over", async () => {
    rig = await cliRig(
      { replies: [{ reasoning: "Read the notes first.", ...call("Read", { file_path: "notes.txt" }) }, { reasoning: "Got them.", content: "NOTE-42." }, { reasoning: "Again.", ...call("Read", { file_path: "notes.txt" }) }, { reasoning: "Same.", content: "Still NOTE-42." }] },
      { "notes.txt": "NOTE-42\n", ".deepcode/settings.json": JSON.stringify({ protocol: "openai" }) },
    );
    const first = await rig.run(["-p", "What do the notes say?"], { env: envFor(rig, "openai") });
    expect(first.code).toBe(0);
    expect(first.stdout).toBe("NOTE-42.\n");
    const openaiId = (rig.sim.requests[1].json.messages as Msg[]).find((m) => m.tool_calls)!.tool_calls![0].id;

    useProtocol(rig, "anthropic");
    const next = await rig.run(["-p", "Check again.", "-c"], { env: envFor(rig, "anthropic") });
    expect(next.stderr).not.toMatch(/error/i);
    expect(next.code).toBe(0);
    expect(next.stdout).toBe("Still NOTE-42.\n");
    const sent = rig.sim.requests.slice(2);
    expect(sent.map((q) => [q.path, q.status])).toEqual([["/anthropic/v1/messages", 200], ["/anthropic/v1/messages", 200]]);
    const blocks = (sent[1].json.messages as Msg[]).flatMap((m) => (Array.isArray(m.content) ? m.content : []));
    // The OpenAI-side reasoning had no signature: not sent as thinking. The new turn's is, signed.
    expect(blocks.filter((b) => b.type === "thinking")).toEqual([{ type: "thinking", thinking: "Again.", signature: signatureOf("Again.") }]);
    expect(blocks.filter((b) => b.type === "tool_use").map((b) => b.id)[0]).toBe(openaiId);
    expect(blocks.filter((b) => b.type === "tool_result").map((b) => b.tool_use_id)[0]).toBe(openaiId);
  });

  it("maps a tool call id the Messages API would refuse (another server's functions.Read:0) alike on the call and its result", async () => {
    const odd = "functions.Read:0";
    rig = await cliRig(
      { replies: [{ tool_calls: [{ id: odd, name: "Read", arguments: { file_path: "notes.txt" } }] }, { content: "NOTE-42." }, { content: "Still NOTE-42." }] },
      { "notes.txt": "NOTE-42\n", ".deepcode/settings.json": JSON.stringify({ protocol: "openai" }) },
    );
    expect((await rig.run(["-p", "What do the notes say?"], { env: envFor(rig, "openai") })).code).toBe(0);
    useProtocol(rig, "anthropic");
    const next = await rig.run(["-p", "Check again.", "-c"], { env: envFor(rig, "anthropic") });
    expect(next.stderr).toBe("");
    expect(next.stdout).toBe("Still NOTE-42.\n");
    const blocks = (rig.sim.requests.at(-1)!.json.messages as Msg[]).flatMap((m) => (Array.isArray(m.content) ? m.content : []));
    const useId = blocks.find((b) => b.type === "tool_use")!.id!;
    expect(useId).toMatch(/^functions_Read_0_[0-9a-f]{8}$/);
    expect(blocks.find((b) => b.type === "tool_result")!.tool_use_id).toBe(useId);
  });

  it("begun on anthropic, continued on openai: reasoning goes back as reasoning_content without the signature, tool ids and results carry over", async () => {
    rig = await cliRig(
      { replies: [{ reasoning: "Read the notes first.", ...call("Read", { file_path: "notes.txt" }) }, { reasoning: "Got them.", content: "NOTE-42." }, { reasoning: "Again.", ...call("Read", { file_path: "notes.txt" }) }, { reasoning: "Same.", content: "Still NOTE-42." }] },
      { "notes.txt": "NOTE-42\n", ".deepcode/settings.json": JSON.stringify({ protocol: "anthropic" }) },
    );
    const first = await rig.run(["-p", "What do the notes say?"], { env: envFor(rig, "anthropic") });
    expect(first.code).toBe(0);
    const anthropicId = (rig.sim.requests[1].json.messages as Msg[]).flatMap((m) => (Array.isArray(m.content) ? m.content : [])).find((b) => b.type === "tool_use")!.id!;

    useProtocol(rig, "openai");
    const next = await rig.run(["-p", "Check again.", "-c"], { env: envFor(rig, "openai") });
    expect(next.code).toBe(0);
    expect(next.stdout).toBe("Still NOTE-42.\n");
    const sent = rig.sim.requests.slice(2);
    expect(sent.map((q) => [q.path, q.status])).toEqual([["/chat/completions", 200], ["/chat/completions", 200]]);
    const msgs = sent[1].json.messages as Msg[];
    expect(msgs.filter((m) => m.role === "assistant").map((m) => m.reasoning_content)).toEqual(["Read the notes first.", "Got them.", "Again."]);
    expect(JSON.stringify(msgs)).not.toContain("signature");
    expect(msgs.find((m) => m.tool_calls)!.tool_calls![0].id).toBe(anthropicId);
    expect(msgs.find((m) => m.role === "tool")!.tool_call_id).toBe(anthropicId);

    // And back again: the reasoning signed on the Anthropic side goes back signed.
    useProtocol(rig, "anthropic");
    const third = await rig.run(["-p", "Once more.", "-c"], { env: envFor(rig, "anthropic") });
    expect(third.stderr).not.toMatch(/error/i);
    expect(rig.sim.requests.at(-1)!.status).toBe(200);
  });
});
