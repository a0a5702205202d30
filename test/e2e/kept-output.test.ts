// A long command output: the model gets what a person would look at, and the whole output is
// one Read away, in a file beside the session that the Read tool opens without asking (-p cannot
// ask, so an ask would show up as a denial) — while deepcode's home otherwise stays secret.
import { afterEach, describe, expect, it } from "vitest";
import { statSync } from "node:fs";
import { join } from "node:path";
import { cliRig, type CliRig } from "./helpers.js";
import { chatBodies } from "../helpers/extension.js";

let rig: CliRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

type Chat = { messages: Array<{ role: string; content?: string }> };
const lastTool = (json: Chat) => [...json.messages].reverse().find((m) => m.role === "tool")?.content ?? "";

describe("the whole output of a long command is kept and readable", () => {
  it("names the file in the result, and Read opens it without asking", async () => {
    let kept = "";
    rig = await cliRig({
      respond: (json: Chat) => {
        const tools = json.messages.filter((m) => m.role === "tool").length;
        if (tools === 0) return { tool_calls: [{ name: "Bash", arguments: { command: "seq 1 50000" } }] };
        if (tools === 1) {
          kept = /lines: Read (\S+)\]/.exec(lastTool(json))?.[1] ?? "(no path)";
          return { tool_calls: [{ name: "Read", arguments: { file_path: kept, offset: 30000, limit: 2 } }] };
        }
        return { content: "done" };
      },
    }, { ".deepcode/settings.json": JSON.stringify({ permissions: { allow: ["Bash(seq:*)"] } }) });
    const r = await rig.run(["-p", "count to fifty thousand", "--trust-project", "--output-format", "json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).permission_denials).toEqual([]);
    const read = chatBodies(rig.sim.requests).pop()!.messages.filter((m) => m.role === "tool").pop();
    expect(read?.content).toBe("30000\t30000\n30001\t30001\n\n(Showing lines 30000–30001 of 50000. Pass offset=30002 to read on.)");
    expect(kept.startsWith(join(rig.env.home, "sessions"))).toBe(true);
    expect(kept).toMatch(/\.outputs\/call_[^/]+\.txt$/);
    expect(statSync(kept).mode & 0o777).toBe(0o600);
  });

  it("still asks (and so, in -p, denies) a Read of the session's own transcript beside it", async () => {
    rig = await cliRig({
      respond: (json: Chat) => {
        const tools = json.messages.filter((m) => m.role === "tool").length;
        if (tools === 0) return { tool_calls: [{ name: "Bash", arguments: { command: "seq 1 50000" } }] };
        if (tools === 1) {
          const kept = /lines: Read (\S+)\]/.exec(lastTool(json))?.[1] ?? "(no path)";
          return { tool_calls: [{ name: "Read", arguments: { file_path: kept.replace(/\.outputs\/[^/]+$/, ".jsonl") } }] };
        }
        return { content: "done" };
      },
    }, { ".deepcode/settings.json": JSON.stringify({ permissions: { allow: ["Bash(seq:*)"] } }) });
    const r = await rig.run(["-p", "count, then read the transcript", "--trust-project", "--output-format", "json"]);
    const denials = JSON.parse(r.stdout).permission_denials as Array<{ tool_name: string; reason: string }>;
    expect(denials).toHaveLength(1);
    expect(denials[0]).toMatchObject({ tool_name: "Read", reason: expect.stringMatching(/deepcode's home/) });
  });
});
