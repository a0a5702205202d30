// Matchers select events by field values. `{ tool: "Bash" }` equals, `{ tool: ["Edit", "Write"] }`
// is any of, `{ tool: /^mcp__/ }` tests; keys may be dot paths (`"input.command"`). All keys
// must match. A field that is missing never matches.

import type { Matcher } from "../contract/index.js";

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
