import { describe, expect, it } from "vitest";
import { Chain } from "../../src/core/chain.js";
import type { ChainReport } from "../../src/core/chain.js";
import { ChainError, type GateDecision } from "../../src/contract/index.js";

const check = { type: "tool.check" as const, sessionId: "s", tool: "Edit", input: { file_path: "a" }, callId: "c", readOnly: false, step: 1 };
const ask = (d: GateDecision["decision"], by = "default"): GateDecision => ({ decision: d, reason: `the default says ${d}`, by });

function reporting(): { chain: Chain; reports: ChainReport[] } {
  const chain = new Chain();
  const reports: ChainReport[] = [];
  chain.onReport((r) => reports.push(r));
  return { chain, reports };
}

describe("each core answer is set once", () => {
  it("refuses a second host core for the same event, naming the event", async () => {
    const chain = new Chain();
    chain.setCore("prompt.submit", (e) => ({ text: `first:${e.text}` }));
    expect(() => chain.setCore("prompt.submit", (e) => ({ text: `second:${e.text}` }))).toThrow(ChainError);
    expect(() => chain.setCore("prompt.submit", (e) => ({ text: e.text }))).toThrow(/'prompt.submit' already has its core answer/);
    // The first answer is still the one that runs.
    expect(await chain.dispatch({ type: "prompt.submit", sessionId: "s", text: "hi" })).toEqual({ text: "first:hi" });
  });

  it("replaces a host core only when asked to by name (replaceCore)", async () => {
    const chain = new Chain();
    chain.setCore("ui.render", () => undefined);
    const shown: string[] = [];
    chain.replaceCore("ui.render", (e) => void shown.push(e.item.kind));
    await chain.dispatch({ type: "ui.render", item: { kind: "text", text: "hello", level: "info" } } as never);
    expect(shown).toEqual(["text"]);
  });

  it("refuses a second set of answers for one session, naming the events it would answer twice", () => {
    const chain = new Chain();
    chain.setSessionCores("s", { "prompt.submit": (e) => ({ text: e.text }), "tool.list": () => [] });
    expect(() => chain.setSessionCores("s", { "tool.list": () => [] })).toThrow(/session 's' already has its core answers \('tool.list'; two engines/);
    expect(() => chain.setSessionCores("s", {})).toThrow(/'prompt.submit', 'tool.list'/);
  });

  it("refuses a core answer that is not a function", () => {
    expect(() => new Chain().setCore("prompt.submit", "answer" as never)).toThrow(/core answer of 'prompt.submit' is not a function/);
  });
});

describe("a gate's default answer is a property of the chain", () => {
  it("answers at the tail when no hook answered, and hooks on the way out see it", async () => {
    const chain = new Chain();
    chain.setGateDefault("tool.check", (e) => ask(e.readOnly ? "allow" : "ask"));
    const seen: string[] = [];
    chain.on("builtin", "observer", "tool.check", null, async (_e, next) => {
      const r = await next();
      seen.push(r.decision);
      return r;
    });
    expect(await chain.dispatch(check)).toEqual(ask("ask"));
    expect(await chain.dispatch({ ...check, readOnly: true })).toEqual(ask("allow"));
    expect(seen).toEqual(["ask", "allow"]);
  });

  it("answers even with no hook on the event", async () => {
    const chain = new Chain();
    chain.setGateDefault("tool.check", () => ask("allow"));
    expect(await chain.dispatch(check)).toEqual(ask("allow"));
  });

  it("is not consulted when a hook answers: a downstream deny stays a deny", async () => {
    const chain = new Chain();
    let consulted = 0;
    chain.setGateDefault("tool.check", () => (consulted++, ask("allow")));
    chain.on("user", "pass", "tool.check", null, (_e, next) => next());
    chain.on("builtin", "no", "tool.check", null, () => ({ decision: "deny", reason: "no", by: "no" }));
    expect(await chain.dispatch(check)).toEqual({ decision: "deny", reason: "no", by: "no" });
    expect(consulted).toBe(0);
  });

  it("fails closed: a default that throws, rejects or answers malformed is a deny, reported", async () => {
    for (const bad of [
      () => {
        throw new Error("broken rules");
      },
      () => Promise.reject(new Error("broken rules")),
      () => ({ decision: "yes" }),
      () => undefined,
    ]) {
      const { chain, reports } = reporting();
      chain.setGateDefault("tool.check", bad as never);
      chain.on("user", "pass", "tool.check", null, (_e, next) => next());
      expect(await chain.dispatch(check)).toMatchObject({ decision: "deny", by: "core" });
      expect(reports).toMatchObject([{ level: "error", owner: "core", event: "tool.check", message: expect.stringMatching(/denied$/) }]);
    }
  });

  it("holds permission.ask's default to its own answers: 'ask' again is a deny", async () => {
    const chain = new Chain();
    chain.setGateDefault("permission.ask", () => ({ decision: "ask" }) as never);
    const e = { type: "permission.ask" as const, sessionId: "s", tool: "Bash", input: {}, reason: "", preview: "", remember: "" };
    expect(await chain.dispatch(e)).toMatchObject({ decision: "deny" });
  });

  it("is set once, for gates only, and its removal brings back the tail's deny", async () => {
    const chain = new Chain();
    const off = chain.setGateDefault("tool.check", () => ask("allow"));
    expect(chain.hasGateDefault("tool.check")).toBe(true);
    expect(() => chain.setGateDefault("tool.check", () => ask("ask"))).toThrow(/'tool.check' already has its default answer/);
    expect(() => chain.setGateDefault("prompt.submit" as never, () => ask("allow") as never)).toThrow(/'prompt.submit' is not a gate/);
    expect(() => chain.setCore("tool.check" as never, (() => ask("allow")) as unknown as never)).toThrow(/is a gate.*setGateDefault/);
    off();
    expect(chain.hasGateDefault("tool.check")).toBe(false);
    expect(await chain.dispatch(check)).toMatchObject({ decision: "deny", by: "core" });
  });
});
