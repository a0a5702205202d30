// One line per event worth telling a person while `-p` runs (on stderr): tools with their
// summary, retries, repairs and notices. Model text is not echoed here: it is the result.
// A refused call says why, and the reason names the flag or rule that would allow it.
import type { StreamEvent } from "../../contract/index.js";
import type { DenialAdvice } from "../denial-advice.js";

/** `inputs`: the run's calls started and not yet ended (callId → input), kept here so that a
 *  refusal names the call it refused (`✗ Bash touch x: denied`), as the REPL's line does. */
export function progressLine(ev: StreamEvent, advice?: DenialAdvice, inputs?: Map<string, unknown>): string | undefined {
  switch (ev.type) {
    case "tool.start":
      inputs?.set(ev.callId, ev.input);
      return undefined;
    case "tool.end": {
      const o = ev.output;
      const input = inputs?.get(ev.callId);
      inputs?.delete(ev.callId);
      const brief = briefInput(input);
      const summary = brief && o.summary === `${ev.tool}: denied` ? `${ev.tool} ${brief}: denied` : o.summary;
      // The same advice for the same rule is said once in a run (denial-advice.ts).
      if (typeof o.meta?.reason === "string") return `✗ ${summary ?? ev.tool} — ${advice ? advice.shown(o.meta.reason) : o.meta.reason}`;
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

/** What a call is about, in a few words: its path, command, pattern or name (60 characters). */
export function briefInput(input: unknown): string {
  if (input === null || typeof input !== "object") return "";
  const i = input as Record<string, unknown>;
  const v = i.file_path ?? i.command ?? i.pattern ?? i.path ?? i.name;
  const s = typeof v === "string" ? v : "";
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
}
