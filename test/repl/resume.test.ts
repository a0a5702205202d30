import { describe, expect, it } from "vitest";
import type { Script } from "../sim/server.mjs";
import { runBin } from "../e2e/helpers.js";
import { useRepl } from "./helpers.js";

const r = useRepl();
const call = (name: string, args: object) => ({ tool_calls: [{ name, arguments: args }] });

/** A project on the simulator; deepcode runs in it with `-p` first, the REPL after. */
const project = (script: Script, files: Record<string, string> = {}) => r.project(script, files);

const repl = (args: string) => r.start(args, { width: 160, loaded: false });
const print = (args: string[]) => runBin(args, { cwd: r.env.root, env: r.env.env });

describe("a resumed session, shown and counted as it happened", () => {
  it("replays the earlier turns in order, each call with how it ended: ✓, ✗ denied, ✗ failed, ↷ suppressed", async () => {
    await project(
      {
        replies: [
          { content: "Let me look.", ...call("Read", { file_path: "a.txt" }) },
          call("Read", { file_path: "missing.txt" }),
          call("Read", { file_path: "a.txt" }),
          call("Read", { file_path: "a.txt" }),
          call("Bash", { command: "touch x" }),
          { content: "All done." },
        ],
      },
      { "a.txt": "alpha\n" },
    );
    expect((await print(["-p", "look around"])).code).toBe(0);
    const s = await (await repl("-c")).waitFor("── earlier in this session ──");
    const earlier = s.slice(s.indexOf("── earlier in this session ──"));
    const order = ["› look around", "Let me look.", "✓ Read a.txt", "✗ Read missing.txt: failed", "✓ Read a.txt", "↷ Read a.txt: suppressed (the same call again)", "✗ Bash touch x: denied", "All done."];
    let at = 0;
    for (const line of order) {
      const i = earlier.indexOf(line, at);
      expect(i, `${line} after position ${at} in:\n${earlier}`).toBeGreaterThanOrEqual(at);
      at = i + line.length;
    }
  });

  it("counts the resumed session's cost in /status, the same figure /sessions lists", async () => {
    await project({ default: { content: "answer" } });
    for (const p of ["one", "two"]) expect((await print(["-p", p, ...(p === "two" ? ["-c"] : [])])).code).toBe(0);
    const t = await repl("-c");
    t.type("/sessions");
    t.press("Enter");
    const listed = /^\s*1 .*?(\$[\d.]+|<\$0\.0001)\s/m.exec(await t.waitFor(/^\s*1\s+\d{4}-/m))![1];
    t.type("/status");
    t.press("Enter");
    const s = await t.waitFor(/^cost\s+/m);
    expect(s).toMatch(new RegExp(`^cost\\s+${listed.replace(/[$.]/g, "\\$&")} this session \\(2 requests\\)$`, "m"));
    expect(s).toMatch(/^cache\s+\d+% of this session's prompt tokens served from the cache \(2 requests\)$/m);
    expect(s).toMatch(/^session\s+\S+ · 2 turns$/m);
  });

  it("shows a banner prefix figure (an estimate, marked ≈) within 5% of the first request", async () => {
    await project({ default: { content: "hi" } });
    const t = await repl("");
    const banner = /prefix ≈([\d.]+)k tokens/.exec(await t.waitFor(/prefix ≈[\d.]+k tokens/))!;
    t.type("hello");
    t.press("Enter");
    await t.waitFor(/^hi$/m);
    const first = r.sim.requests.find((r) => r.usage)!.usage!.prompt_tokens;
    // The first request is the prefix plus the prompt's few tokens; the estimate is made from
    // characters (the tokenizer is not shipped), so it may stand a little either side.
    expect(Number(banner[1]) * 1000).toBeLessThanOrEqual(first * 1.05);
    expect(Number(banner[1]) * 1000).toBeGreaterThan(first * 0.9);
  });
});
