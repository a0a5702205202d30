// Claude Code's matcher rules, as deepcode reads them: "", "*" or no matcher match everything; a
// word of letters, digits and `_` (or several joined by `|`) is an exact name; anything else is
// a JavaScript regular expression, tested unanchored.
import { describe, expect, it } from "vitest";
import { compileMatcher, matching, readHookSet } from "../../mods/hooks/config.js";

function matcher(m: string | undefined): (v: string) => boolean {
  const c = compileMatcher(m);
  if (typeof c === "string") throw new Error(c);
  return c;
}

describe("hook matchers", () => {
  it("match every tool when absent, empty or *", () => {
    for (const m of [undefined, "", "*"]) expect(["Bash", "mcp__git__status"].every(matcher(m))).toBe(true);
  });

  it("match a plain name exactly, never a longer name containing it", () => {
    const m = matcher("Edit");
    expect(m("Edit")).toBe(true);
    expect(m("NotebookEdit")).toBe(false);
    expect(m("edit")).toBe(false);
  });

  it("read | as a list of exact names", () => {
    const m = matcher("Edit|Write");
    expect(["Edit", "Write"].map(m)).toEqual([true, true]);
    expect(["Bash", "MultiEdit"].map(m)).toEqual([false, false]);
  });

  it("match MCP tools by their full mcp__server__tool name, or by a regular expression", () => {
    expect(matcher("mcp__memory__store")("mcp__memory__store")).toBe(true);
    const server = matcher("mcp__memory__.*");
    expect(["mcp__memory__store", "mcp__memory__read", "mcp__git__status"].map(server)).toEqual([true, true, false]);
  });

  it("test anything else as an unanchored regular expression", () => {
    const m = matcher("Notebook.*");
    expect(["NotebookEdit", "NotebookRead", "Bash"].map(m)).toEqual([true, true, false]);
    expect(matcher("^Bash$")("Bash")).toBe(true);
  });

  it("say why a matcher that is not a valid regular expression cannot be used", () => {
    expect(compileMatcher("Bash(")).toMatch(/is not a valid regular expression/);
    expect(compileMatcher(42)).toBe("'matcher' must be a string");
  });

  it("run an identical command once per event, even when two entries list it", () => {
    const set = readHookSet({
      hooks: {
        PreToolUse: [
          { matcher: "Bash", hooks: [{ type: "command", command: "audit" }] },
          { matcher: "*", hooks: [{ type: "command", command: "audit", timeout: 5 }] },
        ],
      },
    });
    expect(set.warnings).toEqual([]);
    expect(matching(set, "PreToolUse", "Bash").commands).toEqual([{ command: "audit", timeoutMs: 60_000 }]);
    expect(matching(set, "PreToolUse", "Read").commands).toEqual([{ command: "audit", timeoutMs: 5_000 }]);
  });
});
