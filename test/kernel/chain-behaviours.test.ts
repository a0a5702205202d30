import { describe, expect, it } from "vitest";
import { Chain } from "../../src/core/chain.js";
import type { GateDecision } from "../../src/contract/index.js";

const checkEvent = { type: "tool.check" as const, sessionId: "s", tool: "Bash", input: { command: "ls" }, callId: "c1", readOnly: false, step: 1 };

function promptChain(): { chain: Chain; coreSaw: string[] } {
  const chain = new Chain();
  const coreSaw: string[] = [];
  chain.setCore("prompt.submit", (e) => {
    coreSaw.push(e.text);
    return { text: `core:${e.text}` };
  });
  return { chain, coreSaw };
}

describe("a hook can observe, rewrite, answer, deny or wrap", () => {
  it("observes: the caller gets the core's answer unchanged", async () => {
    const { chain, coreSaw } = promptChain();
    const observed: string[] = [];
    chain.on("user", "obs", "prompt.submit", null, (e, next) => {
      observed.push(e.text);
      return next();
    });
    expect(await chain.dispatch({ type: "prompt.submit", sessionId: "s", text: "hi" })).toEqual({ text: "core:hi" });
    expect(observed).toEqual(["hi"]);
    expect(coreSaw).toEqual(["hi"]);
  });

  it("rewrites: downstream sees the new event, the original stays as it was", async () => {
    const { chain, coreSaw } = promptChain();
    let original: { text: string } | undefined;
    chain.on("user", "rw", "prompt.submit", null, (e, next) => {
      original = e;
      return next({ ...e, text: e.text.toUpperCase() });
    });
    expect(await chain.dispatch({ type: "prompt.submit", sessionId: "s", text: "hi" })).toEqual({ text: "core:HI" });
    expect(coreSaw).toEqual(["HI"]);
    expect(original?.text).toBe("hi");
  });

  it("answers: returning without next means nothing downstream runs", async () => {
    const { chain, coreSaw } = promptChain();
    let inner = 0;
    chain.on("user", "answer", "prompt.submit", null, () => ({ text: "answered" }));
    chain.on("builtin", "inner", "prompt.submit", null, (_e, next) => {
      inner++;
      return next();
    });
    expect(await chain.dispatch({ type: "prompt.submit", sessionId: "s", text: "hi" })).toEqual({ text: "answered" });
    expect(coreSaw).toEqual([]);
    expect(inner).toBe(0);
  });

  it("denies a gate event: the caller gets the deny and the tool's allow below never counts", async () => {
    const chain = new Chain();
    let below = 0;
    chain.on("prepend", "policy", "tool.check", null, (): GateDecision => ({ decision: "deny", reason: "policy says no", by: "policy" }));
    chain.on("builtin", "default", "tool.check", null, (): GateDecision => {
      below++;
      return { decision: "allow" };
    });
    expect(await chain.dispatch(checkEvent)).toEqual({ decision: "deny", reason: "policy says no", by: "policy" });
    expect(below).toBe(0);
  });

  it("wraps: the hook changes what downstream answered", async () => {
    const { chain } = promptChain();
    chain.on("user", "wrap", "prompt.submit", null, async (_e, next) => {
      const r = await next();
      return { ...r, text: `${r.text}!` };
    });
    expect(await chain.dispatch({ type: "prompt.submit", sessionId: "s", text: "hi" })).toEqual({ text: "core:hi!" });
  });
});

describe("misuse of the chain is caught", () => {
  it("throws when a hook calls next twice, and the turn goes on with the first answer", async () => {
    const { chain } = promptChain();
    const errors: string[] = [];
    chain.onReport((r) => errors.push(`${r.owner}: ${r.message}`));
    let secondCall: unknown;
    chain.on("user", "twice", "prompt.submit", null, async (_e, next) => {
      const r = await next();
      try {
        await next();
      } catch (err) {
        secondCall = err;
      }
      return r;
    });
    expect(await chain.dispatch({ type: "prompt.submit", sessionId: "s", text: "hi" })).toEqual({ text: "core:hi" });
    expect(String(secondCall)).toMatch(/called next\(\) twice on 'prompt.submit'/);
  });

  it("freezes events so a hook cannot mutate them, nested fields included", async () => {
    const chain = new Chain();
    const attempts: string[] = [];
    chain.on("user", "mutator", "tool.check", null, (e, next) => {
      try {
        (e as { tool: string }).tool = "Read";
      } catch {
        attempts.push("top-level refused");
      }
      try {
        (e.input as { command: string }).command = "rm -rf /";
      } catch {
        attempts.push("nested refused");
      }
      return next();
    });
    let seenByCore: unknown;
    chain.on("builtin", "last", "tool.check", null, (e) => {
      seenByCore = { tool: e.tool, command: e.input.command };
      return { decision: "allow" };
    });
    await chain.dispatch({ ...checkEvent, input: { command: "ls" } });
    expect(attempts).toEqual(["top-level refused", "nested refused"]);
    expect(seenByCore).toEqual({ tool: "Bash", command: "ls" });
  });

  it("reports a hook that resolves before its downstream has finished", async () => {
    const chain = new Chain();
    const reports: string[] = [];
    chain.onReport((r) => reports.push(`${r.level} ${r.owner} ${r.message}`));
    chain.setCore("session.end", () => new Promise<void>((res) => setTimeout(res, 20)));
    chain.on("user", "hasty", "session.end", null, (_e, next) => {
      void next();
      return undefined;
    });
    await chain.dispatch({ type: "session.end", sessionId: "s", reason: "" });
    expect(reports).toEqual([expect.stringMatching(/^warn hasty hook returned before its downstream finished/)]);
  });

  it("refuses a rewrite that changes the event's type", async () => {
    const { chain } = promptChain();
    const reports: string[] = [];
    chain.onReport((r) => reports.push(r.message));
    chain.on("user", "sneaky", "prompt.submit", null, (e, next) => next({ ...e, type: "session.end" } as never));
    expect(await chain.dispatch({ type: "prompt.submit", sessionId: "s", text: "hi" })).toEqual({ text: "core:hi" });
    expect(reports[0]).toMatch(/not a 'prompt.submit' event/);
  });
});
