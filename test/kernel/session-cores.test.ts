import { describe, expect, it } from "vitest";
import { Chain } from "../../src/core/chain.js";
import { NotImplementedError } from "../../src/contract/index.js";

describe("one chain, many sessions: each session's engine answers its own events", () => {
  it("routes an event to the core of the session it names, and the host's core answers the rest", async () => {
    const chain = new Chain();
    chain.setCore("prompt.submit", (e) => ({ text: `host:${e.text}` }));
    chain.setSessionCores("a", { "prompt.submit": (e) => ({ text: `a:${e.text}` }) });
    chain.setSessionCores("b", { "prompt.submit": (e) => ({ text: `b:${e.text}` }) });
    expect(await chain.dispatch({ type: "prompt.submit", sessionId: "a", text: "x" })).toEqual({ text: "a:x" });
    expect(await chain.dispatch({ type: "prompt.submit", sessionId: "b", text: "x" })).toEqual({ text: "b:x" });
    expect(await chain.dispatch({ type: "prompt.submit", sessionId: "c", text: "x" })).toEqual({ text: "host:x" });
  });

  it("passes every session's events through the very same hooks, outermost first", async () => {
    const chain = new Chain();
    const seen: string[] = [];
    chain.on("prepend", "policy", "prompt.submit", null, async (e, next) => {
      seen.push(`policy:${e.sessionId}`);
      return next();
    });
    chain.on("user", "plugin", "prompt.submit", null, async (e, next) => {
      const r = await next();
      return { text: `${r.text}!` };
    });
    chain.setSessionCores("main", { "prompt.submit": (e) => ({ text: `main:${e.text}` }) });
    chain.setSessionCores("sub", { "prompt.submit": (e) => ({ text: `sub:${e.text}` }) });
    expect(await chain.dispatch({ type: "prompt.submit", sessionId: "sub", text: "x" })).toEqual({ text: "sub:x!" });
    expect(await chain.dispatch({ type: "prompt.submit", sessionId: "main", text: "x" })).toEqual({ text: "main:x!" });
    expect(seen).toEqual(["policy:sub", "policy:main"]);
  });

  it("keeps a session's answers when a second session installs its own (no engine replaces another's)", async () => {
    const chain = new Chain();
    chain.setSessionCores("first", { "tool.list": () => [] });
    chain.setSessionCores("second", { "tool.list": () => [{ type: "function", function: { name: "Read", description: "", parameters: {} } }] });
    expect(await chain.dispatch({ type: "tool.list", sessionId: "first" })).toEqual([]);
    expect(await chain.dispatch({ type: "tool.list", sessionId: "second" })).toHaveLength(1);
  });

  it("forgets a session's answers when its engine uninstalls them, and names the session in the error", async () => {
    const chain = new Chain();
    const off = chain.setSessionCores("gone", { "tool.list": () => [] });
    off();
    await expect(chain.dispatch({ type: "tool.list", sessionId: "gone" })).rejects.toThrow(NotImplementedError);
    await expect(chain.dispatch({ type: "tool.list", sessionId: "gone" })).rejects.toThrow(/session 'gone'/);
  });

  it("refuses two sets of answers for one session, and a session core for a gate", () => {
    const chain = new Chain();
    chain.setSessionCores("s", {});
    expect(() => chain.setSessionCores("s", {})).toThrow(/already has its core answers/);
    // A gate has no core answer, for a session neither (its type allows the name: checked at run time).
    expect(() => chain.setSessionCores("t", { "tool.check": () => ({ decision: "allow" }) })).toThrow(/is a gate/);
  });

  it("still denies a gate event of any session at the tail", async () => {
    const chain = new Chain();
    chain.setSessionCores("s", {});
    const r = await chain.dispatch({ type: "tool.check", sessionId: "s", tool: "Edit", input: {}, callId: "c", readOnly: false, step: 1 });
    expect(r.decision).toBe("deny");
  });
});
