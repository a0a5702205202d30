// A request over the context window (400 "maximum context length", OpenManus#79) must never
// leave a session that `-c` cannot continue. When the turn's own large messages are the cause,
// they are bounded (the corpus's context-limits family covers that); when the history as a
// whole no longer fits, the turn compacts — and the digest request sends the history with its
// large messages bounded, never the same too-long request.
import { afterEach, describe, expect, it } from "vitest";
import { call, cliRig, type CliRig } from "./helpers.js";
import type { ChatRequestJson, ScriptEntry } from "../sim/server.mjs";

let rig: CliRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const DIGEST = "[deepcode] The conversation is about to be compacted";
const file = (n: number): string => Array.from({ length: 40 }, (_, i) => `file ${n} line ${i}: ${"x".repeat(30)}`).join("\n") + "\n";

describe("a history that outgrows the context window", () => {
  it("is compacted with a bounded digest request, the turn goes on, and -c continues", async () => {
    let limit = Infinity;
    const sizes: number[] = [];
    const replies: ScriptEntry[] = [call("Read", { file_path: "a.txt" }), call("Read", { file_path: "b.txt" }), call("Read", { file_path: "c.txt" }), { content: "Read all three." }];
    let i = 0;
    rig = await cliRig({
      respond: (req: ChatRequestJson) => {
        const size = JSON.stringify(req.messages).length;
        sizes.push(size);
        if (size > limit) return { fault: { status: 400, message: `This model's maximum context length is 1000 tokens. However, you requested ${size} tokens (${size} in the messages, 0 in the completion). Please reduce the length of the messages or completion.` } };
        const last = req.messages.at(-1) as { content?: string };
        if (last.content?.startsWith(DIGEST)) return { content: "Digest: the user had three files read; all three were read." };
        return replies[i++] ?? { content: "Continuing after the digest." };
      },
    }, { "a.txt": file(1), "b.txt": file(2), "c.txt": file(3) });

    const first = await rig.run(["-p", "Read a.txt, b.txt and c.txt."]);
    expect(first.code).toBe(0);
    // The window now ends just past what the last request sent: the next turn cannot fit.
    limit = sizes.at(-1)! + 100;
    const next = await rig.run(["-p", "Now summarise them.", "-c"]);
    expect(next.stderr).toMatch(/exceeded the model's context window; compacted \(\d+ → \d+ tokens\) and asking again/);
    expect(next.code).toBe(0);
    expect(next.stdout).toBe("Continuing after the digest.\n");
    const digestRequests = rig.sim.requests.filter((q) => (q.json?.messages ?? []).some((m: { content?: string }) => m.content?.startsWith(DIGEST)));
    expect(digestRequests.length).toBeGreaterThanOrEqual(1);
    expect(digestRequests.at(-1)!.status).toBe(200);
    expect(JSON.stringify(digestRequests.at(-1)!.json.messages).length).toBeLessThanOrEqual(limit);

    const third = await rig.run(["-p", "Thanks.", "-c"]);
    expect(third.code).toBe(0);
    expect(rig.sim.requests.at(-1)!.status).toBe(200);
  });
});
