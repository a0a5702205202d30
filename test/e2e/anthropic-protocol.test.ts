// The Anthropic protocol as a person chooses it (settings `protocol: "anthropic"`), run by the
// real CLI against the simulator's /anthropic endpoint (DeepSeek's Anthropic Messages wire):
// a thinking turn with a tool call, whose thinking block must go back with the signature the
// endpoint issued (the simulator refuses a missing or wrong one, as the endpoint does), and a
// `-c` in a new process that sends it back again from the session file.
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
}

describe("the Anthropic protocol (settings protocol: anthropic)", () => {
  it("runs a tool-calling turn over /anthropic/v1/messages, sending each thinking block back with its signature, and -c continues", async () => {
    rig = await cliRig(
      { replies: [{ reasoning: "I should read the notes first.", ...call("Read", { file_path: "notes.txt" }) }, { reasoning: "Got them.", content: "The notes say NOTE-42." }, { reasoning: "Again.", content: "Still NOTE-42." }] },
      { "notes.txt": "NOTE-42\n", ".deepcode/settings.json": JSON.stringify({ protocol: "anthropic" }) },
    );
    const env = { DEEPSEEK_BASE_URL: `${rig.sim.url}/anthropic` };
    const r = await rig.run(["-p", "What do the notes say?"], { env });
    expect(r.stderr).toBe("● Read notes.txt (1 line)\n");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("The notes say NOTE-42.\n");
    expect(rig.sim.requests.map((q) => [q.path, q.status])).toEqual([["/anthropic/v1/messages", 200], ["/anthropic/v1/messages", 200]]);
    const thinkingSent = (i: number): Block[] =>
      (rig!.sim.requests[i].json.messages as Array<{ role: string; content: Block[] | string }>).flatMap((m) => (m.role === "assistant" && Array.isArray(m.content) ? m.content.filter((b) => b.type === "thinking") : []));
    expect(thinkingSent(1)).toEqual([{ type: "thinking", thinking: "I should read the notes first.", signature: signatureOf("I should read the notes first.") }]);
    expect(rig.sim.requests[1].headers["x-api-key"]).toBe("sk-test-cli");

    const again = await rig.run(["-p", "And now?", "-c"], { env });
    expect(again.code).toBe(0);
    expect(again.stdout).toBe("Still NOTE-42.\n");
    expect(rig.sim.requests[2].status).toBe(200);
    expect(thinkingSent(2).map((b) => b.signature)).toEqual([signatureOf("I should read the notes first."), signatureOf("Got them.")]);
  });

  it("is refused by the endpoint when a thinking block comes back without its signature (what the simulator enforces)", async () => {
    rig = await cliRig({ default: { content: "ok" } });
    const res = await fetch(`${rig.sim.url}/anthropic/v1/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": "sk-test-cli" },
      body: JSON.stringify({ model: "deepseek-flash", max_tokens: 64, messages: [{ role: "user", content: "hi" }, { role: "assistant", content: [{ type: "thinking", thinking: "x" }, { type: "text", text: "y" }] }, { role: "user", content: "again" }] }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/signature/);
  });
});
