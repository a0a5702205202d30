// One turn that alone is over the context window, with nothing older to compact (issue #23):
// the first turn's own large tool result (not the latest one) or the person's own prompt makes
// the request too long. The session must go on — the offending message is cut to a stated
// bound, the person is told what was cut — and `-c` after it must send a history that fits.
import { afterEach, describe, expect, it } from "vitest";
import { call, cliRig, type CliRig } from "./helpers.js";
import type { ChatRequestJson, ScriptEntry } from "../sim/server.mjs";

let rig: CliRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const lines = (tag: string, n: number): string => Array.from({ length: n }, (_, i) => `${tag} line ${i}: ${"y".repeat(40)}`).join("\n") + "\n";
const tooLong = (size: number): { fault: { status: number; message: string } } => ({
  fault: { status: 400, message: `This model's maximum context length is 1000 tokens. However, you requested ${size} tokens (${size} in the messages, 0 in the completion). Please reduce the length of the messages or completion.` },
});

describe("a first turn that alone outgrows the context window", () => {
  it("cuts the turn's large tool result to a stated bound, goes on, and -c continues", async () => {
    let limit = Infinity;
    const replies: ScriptEntry[] = [call("Read", { file_path: "big.txt" }), call("Read", { file_path: "small.txt" }), { content: "Both read." }, { content: "Still here." }];
    let i = 0;
    rig = await cliRig({
      respond: (req: ChatRequestJson) => {
        const size = JSON.stringify(req.messages).length;
        if (size > limit) return tooLong(size);
        const reply = replies[i++] ?? { content: "more" };
        // The window ends just past the request that carries big.txt's result: small.txt's
        // (under the tail's own bound) tips the next one over, and big.txt is no longer last.
        if (i === 2) limit = size + 400;
        return reply;
      },
    }, { "big.txt": lines("big", 250), "small.txt": lines("small", 20) });

    const first = await rig.run(["-p", "Read big.txt and then small.txt."]);
    expect(first.stderr).toMatch(/cut the Read result of \d+ characters to its first 600/);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe("Both read.\n");
    const last = rig.sim.requests.at(-1)!;
    expect(last.status).toBe(200);
    expect(JSON.stringify(last.json.messages)).toContain("small line 19");
    expect(JSON.stringify(last.json.messages)).not.toContain("big line 200");

    const next = await rig.run(["-p", "Anything else?", "-c"]);
    expect(next.code).toBe(0);
    expect(next.stdout).toBe("Still here.\n");
    expect(rig.sim.requests.at(-1)!.status).toBe(200);
  });

  it("when no single message is large, cuts every result over 1000 characters once compacting cannot help", async () => {
    let limit = Infinity;
    const names = ["a", "b", "c", "d", "e", "f"];
    const replies: ScriptEntry[] = [...names.map((n) => call("Read", { file_path: `${n}.txt` })), { content: "Read all six." }];
    let i = 0;
    rig = await cliRig({
      respond: (req: ChatRequestJson) => {
        const size = JSON.stringify(req.messages).length;
        if (size > limit) return tooLong(size);
        const reply = replies[i++] ?? { content: "more" };
        if (i === names.length) limit = size + 600; // the sixth result (about 1.6k) tips it over
        return reply;
      },
    }, Object.fromEntries(names.map((n) => [`${n}.txt`, lines(n, 27)])));
    const first = await rig.run(["-p", "Read the six files."]);
    expect(first.stderr).toMatch(/compacting could not help \(nothing to compact yet \(too few turns\)\), so cut the Read result of \d+ characters to its first 300(, the Read result of \d+ characters to its first 300){5}/);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe("Read all six.\n");
    const next = await rig.run(["-p", "Go on.", "-c"]);
    expect(next.code).toBe(0);
    expect(rig.sim.requests.at(-1)!.status).toBe(200);
  });

  it("says the person's own prompt did not fit, keeps its start, and -c continues", async () => {
    const limit = 6000;
    rig = await cliRig({
      respond: (req: ChatRequestJson) => {
        const size = JSON.stringify(req.messages).length;
        if (size > limit) return tooLong(size);
        return { content: "Got the start of it." };
      },
    });
    const pasted = lines("pasted", 200);
    const first = await rig.run(["-p", `Look at this:\n${pasted}`]);
    expect(first.stderr).toMatch(/your message \(\d+ characters\) does not fit the model's context window: only its first 600 characters were sent/);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe("Got the start of it.\n");
    const sent = JSON.stringify(rig.sim.requests.at(-1)!.json.messages);
    expect(sent).toContain("pasted line 0");
    expect(sent).toContain("was cut to its first 600 characters");
    expect(sent).not.toContain("pasted line 199");
    const next = await rig.run(["-p", "And now?", "-c"]);
    expect(next.code).toBe(0);
    expect(rig.sim.requests.at(-1)!.status).toBe(200);
  });
});
