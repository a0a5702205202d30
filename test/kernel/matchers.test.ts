import { describe, expect, it } from "vitest";
import { Chain } from "../../src/core/chain.js";
import type { Matcher } from "../../src/contract/index.js";

function seenFor(pattern: string, matcher: Matcher | null): Promise<string[]> {
  const chain = new Chain();
  const seen: string[] = [];
  chain.on("user", "m", pattern, matcher, (e, next) => {
    seen.push(`${e.type}:${"tool" in e ? e.tool : ""}`);
    return next();
  });
  chain.on("builtin", "ok", "tool.*", null, (e) => (e.type === "tool.check" ? { decision: "allow" } : { content: "" }));
  const events: Array<Parameters<Chain["dispatch"]>[0]> = [
    { type: "tool.check" as const, sessionId: "s", tool: "Bash", input: { command: "git push" }, callId: "1", readOnly: false },
    { type: "tool.check" as const, sessionId: "s", tool: "Edit", input: {}, callId: "2", readOnly: false },
    { type: "tool.check" as const, sessionId: "s", tool: "mcp__fs__read", input: {}, callId: "3", readOnly: true },
    { type: "tool.call" as const, sessionId: "s", tool: "Bash", input: {}, callId: "4" },
  ];
  return Promise.all(events.map((e) => chain.dispatch(e))).then(() => seen);
}

describe("matchers select events by field values and names", () => {
  it("matches a field equal to a string", async () => {
    expect(await seenFor("tool.check", { tool: "Bash" })).toEqual(["tool.check:Bash"]);
  });
  it("matches a field equal to any value of an array", async () => {
    expect(await seenFor("tool.check", { tool: ["Edit", "Write"] })).toEqual(["tool.check:Edit"]);
  });
  it("matches a field against a RegExp", async () => {
    expect(await seenFor("tool.check", { tool: /^mcp__/ })).toEqual(["tool.check:mcp__fs__read"]);
  });
  it("matches a dot path into the payload", async () => {
    expect(await seenFor("tool.check", { "input.command": /^git push\b/ })).toEqual(["tool.check:Bash"]);
  });
  it("requires every key to match", async () => {
    expect(await seenFor("tool.check", { tool: "Bash", readOnly: true })).toEqual([]);
  });
  it("matches every event with *", async () => {
    expect(await seenFor("*", null)).toHaveLength(4);
  });
  it("matches every event of a namespace with ns.*", async () => {
    expect(await seenFor("tool.*", { tool: "Bash" })).toEqual(["tool.check:Bash", "tool.call:Bash"]);
  });
  it("never matches a field the event does not have", async () => {
    expect(await seenFor("*", { nosuch: "x" })).toEqual([]);
  });
  it("stays correct with a global RegExp tested many times", async () => {
    expect(await seenFor("tool.check", { tool: /Bash|Edit/g })).toEqual(["tool.check:Bash", "tool.check:Edit"]);
  });
});
