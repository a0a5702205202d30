// Matchers select events by field values. `{ tool: "Bash" }` equals, `{ tool: ["Edit", "Write"] }`
// is any of, `{ tool: /^mcp__/ }` tests; keys may be dot paths (`"input.command"`). All keys
// must match. A field that is missing never matches. Event patterns (`*`, `ns.*`) are here too.

import { CATALOGUE, ChainError, isEventName, type Matcher } from "../contract/index.js";

export type CompiledMatcher = (event: Record<string, unknown>) => boolean;

export function compileMatcher(m: Matcher): CompiledMatcher {
  const tests = Object.entries(m).map(([key, want]) => {
    const path = key.split(".");
    const test = valueTest(want);
    return (e: Record<string, unknown>): boolean => {
      let v: unknown = e;
      for (const p of path) {
        if (v === null || typeof v !== "object") return false;
        v = (v as Record<string, unknown>)[p];
      }
      return v !== undefined && test(v);
    };
  });
  if (tests.length === 1) return tests[0];
  return (e) => tests.every((t) => t(e));
}

function valueTest(want: Matcher[string]): (v: unknown) => boolean {
  if (want instanceof RegExp) {
    // A global/sticky RegExp keeps state between tests; use a stateless copy.
    const re = want.global || want.sticky ? new RegExp(want.source, want.flags.replace(/[gy]/g, "")) : want;
    return (v) => (typeof v === "string" || typeof v === "number") && re.test(String(v));
  }
  if (Array.isArray(want)) {
    const set = new Set<unknown>(want);
    return (v) => set.has(v);
  }
  return (v) => v === want;
}

/** An event pattern `on` accepts: an event name, `*`, or `ns.*` matching some event. */
export function checkPattern(pattern: string): void {
  if (pattern === "*") return;
  if (pattern.endsWith(".*")) {
    const ns = pattern.slice(0, -1);
    if (!Object.keys(CATALOGUE).some((n) => n.startsWith(ns))) {
      throw new ChainError(`pattern '${pattern}' matches no event (deepcode --events lists them)`);
    }
    return;
  }
  if (!isEventName(pattern)) throw new ChainError(`unknown event '${pattern}' (deepcode --events lists them)`);
}

export function patternMatches(pattern: string, name: string): boolean {
  if (pattern === name || pattern === "*") return true;
  return pattern.endsWith(".*") && name.startsWith(pattern.slice(0, -1));
}
