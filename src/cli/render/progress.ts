// One line per event worth telling a person while `-p` runs (on stderr): tools with their
// summary, retries, repairs and notices. Model text is not echoed here: it is the result.
// A refused call says why, and the reason names the flag or rule that would allow it.
import type { StreamEvent } from "../../contract/index.js";
import type { DenialAdvice } from "../denial-advice.js";

export function progressLine(ev: StreamEvent, advice?: DenialAdvice): string | undefined {
  switch (ev.type) {
    case "tool.end": {
      const o = ev.output;
      // The same advice for the same rule is said once in a run (denial-advice.ts).
      if (typeof o.meta?.reason === "string") return `✗ ${o.summary ?? ev.tool} — ${advice ? advice.shown(o.meta.reason) : o.meta.reason}`;
      const why = typeof o.meta?.failure === "string" ? o.meta.failure : o.summary ? "" : firstLine(o.content);
      return `${o.isError ? "✗" : "●"} ${o.summary ?? ev.tool}${o.isError && why ? `: ${why}` : ""}`;
    }
    case "notice":
      return `deepcode: ${ev.message}`;
    case "repair":
      return `deepcode: repaired (${ev.kind}) ${ev.detail}`;
    case "model.delta":
      return ev.delta.kind === "retry" ? `deepcode: ${ev.delta.reason}; retrying in ${(ev.delta.delayMs / 1000).toFixed(1)} s (attempt ${ev.delta.attempt})` : undefined;
    default:
      return undefined;
  }
}

/** The first line with something on it (npm and others start with a blank line). */
function firstLine(s: string): string {
  const l = s.split("\n").find((x) => x.trim() !== "")?.trim() ?? "";
  return l.length > 160 ? `${l.slice(0, 157)}...` : l;
}
