import { describe, expect, it } from "vitest";
import { Chain } from "../../src/core/chain.js";
import type { ChainReport } from "../../src/core/chain.js";
import { DeniedError, type AnyHook } from "../../src/contract/index.js";

const check = { type: "tool.check" as const, sessionId: "s", tool: "Write", input: { file_path: "a" }, callId: "c", readOnly: false, step: 1 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function gateChain(hook: AnyHook, timeoutMs?: number): { chain: Chain; reports: ChainReport[] } {
  const chain = new Chain();
  const reports: ChainReport[] = [];
  chain.onReport((r) => reports.push(r));
  chain.on("user", "bad-plugin", "tool.check", null, hook, timeoutMs ? { timeoutMs } : {});
  // Below the failing hook, something that would allow: fail-closed means it must not matter.
  chain.on("builtin", "allow-all", "tool.check", null, () => ({ decision: "allow" }));
  return { chain, reports };
}

describe("a gate event fails closed", () => {
  it("denies when a hook throws", async () => {
    const { chain, reports } = gateChain(() => {
      throw new Error("boom");
    });
    expect(await chain.dispatch(check)).toMatchObject({ decision: "deny", reason: expect.stringContaining("boom"), by: "bad-plugin" });
    expect(reports).toMatchObject([{ level: "error", owner: "bad-plugin", event: "tool.check" }]);
  });

  it("denies when a hook's promise rejects after it already got an allow from downstream", async () => {
    const { chain } = gateChain(async (_e, next) => {
      await next();
      throw new Error("late failure");
    });
    expect(await chain.dispatch(check)).toMatchObject({ decision: "deny" });
  });

  it("denies when a hook overruns its time limit", async () => {
    const { chain, reports } = gateChain(() => new Promise(() => undefined), 30);
    expect(await chain.dispatch(check)).toMatchObject({ decision: "deny", reason: expect.stringContaining("overran its 30 ms limit") });
    expect(reports[0].message).toMatch(/overran/);
  });

  it("denies when a hook returns a malformed result", async () => {
    for (const bad of [undefined, null, "allow", { decision: "yes" }, { allow: true }, 42]) {
      const { chain } = gateChain(() => bad);
      expect(await chain.dispatch(check)).toMatchObject({ decision: "deny", reason: expect.stringContaining("malformed") });
    }
  });

  it("denies on permission.ask when an answer says 'ask' again (only allow or deny are answers)", async () => {
    const chain = new Chain();
    chain.on("user", "p", "permission.ask", null, () => ({ decision: "ask" }));
    const ask = { type: "permission.ask" as const, sessionId: "s", tool: "Bash", input: {}, reason: "", preview: "", remember: "" };
    expect(await chain.dispatch(ask)).toMatchObject({ decision: "deny" });
  });

  it("denies when no hook is registered at all: the tail answers deny", async () => {
    const chain = new Chain();
    expect(await chain.dispatch(check)).toMatchObject({ decision: "deny", by: "core" });
  });

  it("denies when every hook passes the event on", async () => {
    const chain = new Chain();
    chain.on("user", "observer", "tool.check", null, (_e, next) => next());
    expect(await chain.dispatch(check)).toMatchObject({ decision: "deny", by: "core" });
  });

  it("refuses a core answer for a gate event", () => {
    expect(() => new Chain().setCore("tool.check" as never, () => ({ decision: "allow" }) as never)).toThrow(/is a gate/);
  });

  it("counts only the hook's own time, not the time spent inside next", async () => {
    const chain = new Chain();
    chain.on("user", "patient", "tool.check", null, async (_e, next) => next(), { timeoutMs: 40 });
    chain.on("builtin", "slow-but-fine", "tool.check", null, async () => {
      await sleep(120);
      return { decision: "allow" };
    }, { timeoutMs: 1000 });
    expect(await chain.dispatch(check)).toEqual({ decision: "allow" });
  });

  it("charges a hook for its own time after next returns", async () => {
    const chain = new Chain();
    chain.on("user", "dawdler", "tool.check", null, async (_e, next) => {
      const r = await next();
      await sleep(150);
      return r;
    }, { timeoutMs: 40 });
    chain.on("builtin", "allow", "tool.check", null, () => ({ decision: "allow" }));
    expect(await chain.dispatch(check)).toMatchObject({ decision: "deny", reason: expect.stringContaining("overran") });
  });
});

describe("a non-gate event skips a failing hook and reports it loudly", () => {
  function promptChain() {
    const chain = new Chain();
    const reports: ChainReport[] = [];
    chain.onReport((r) => reports.push(r));
    chain.setCore("prompt.submit", (e) => ({ text: `core:${e.text}` }));
    return { chain, reports };
  }
  const ev = { type: "prompt.submit" as const, sessionId: "s", text: "hi" };

  it("skips a hook that throws before calling next, and the turn goes on", async () => {
    const { chain, reports } = promptChain();
    chain.on("user", "crashy", "prompt.submit", null, () => {
      throw new Error("kaput");
    });
    expect(await chain.dispatch(ev)).toEqual({ text: "core:hi" });
    expect(reports).toEqual([{ level: "error", owner: "crashy", event: "prompt.submit", message: "hook failed and was skipped: kaput" }]);
  });

  it("skips a hook that times out and keeps the downstream answer it already had", async () => {
    const { chain, reports } = promptChain();
    let coreRuns = 0;
    chain.replaceCore("prompt.submit", (e) => {
      coreRuns++;
      return { text: `core:${e.text}` };
    });
    chain.on("user", "hang-after", "prompt.submit", null, async (_e, next) => {
      await next();
      await new Promise(() => undefined);
      return { text: "never" };
    }, { timeoutMs: 30 });
    expect(await chain.dispatch(ev)).toEqual({ text: "core:hi" });
    expect(coreRuns).toBe(1);
    expect(reports[0]).toMatchObject({ owner: "hang-after", message: expect.stringContaining("overran its 30 ms limit") });
  });

  it("passes a deliberate refusal (DeniedError) to the caller instead of skipping the hook", async () => {
    const chain = new Chain();
    const reports: ChainReport[] = [];
    chain.onReport((r) => reports.push(r));
    let wrote = false;
    chain.setCore("fs.write", () => {
      wrote = true;
      return { stat: { size: 0, mtimeMs: 0, mode: 0, isFile: true, isDirectory: false }, created: true };
    });
    chain.on("prepend", "path-fence", "fs.write", null, () => {
      throw new DeniedError("write outside the workspace: /etc/passwd", "path-fence");
    });
    await expect(chain.dispatch({ type: "fs.write", path: "/etc/passwd", data: "x" })).rejects.toMatchObject({ name: "DeniedError", by: "path-fence" });
    expect(wrote).toBe(false);
    expect(reports).toEqual([]);
  });

  it("does not run the rest of the chain again when a hook that timed out calls next late", async () => {
    const chain = new Chain();
    chain.onReport(() => undefined);
    let coreRuns = 0;
    chain.setCore("session.end", () => void coreRuns++);
    let lateError: unknown;
    chain.on("user", "slow", "session.end", null, async (_e, next) => {
      await sleep(120);
      try {
        return await next();
      } catch (err) {
        lateError = err;
      }
    }, { timeoutMs: 30 });
    await chain.dispatch({ type: "session.end", sessionId: "s", reason: "" });
    await sleep(150);
    expect(coreRuns).toBe(1);
    expect(String(lateError)).toMatch(/called next\(\) on 'session.end' after its time ran out/);
  });

  it("passes a core failure through to the caller instead of blaming the hook", async () => {
    const chain = new Chain();
    const reports: ChainReport[] = [];
    chain.onReport((r) => reports.push(r));
    chain.setCore("prompt.submit", () => {
      throw new Error("core exploded");
    });
    chain.on("user", "innocent", "prompt.submit", null, (_e, next) => next());
    await expect(chain.dispatch(ev)).rejects.toThrow("core exploded");
    expect(reports).toEqual([]);
  });
});
