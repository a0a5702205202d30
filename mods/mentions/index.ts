// Built-in mod: @-mentions. On `prompt.submit`, `@path` attaches a file and `@dir/` a folder's
// listing (the expansion itself: src/lib/mentions.ts). One hook for every front end — the REPL,
// `-p` and an editor's sessions (`deepcode acp`) — registered once, at assembly, so the chain
// `deepcode --events` prints is the one a prompt passes.
//
// Placement: builtin tier (user-tier hooks, Claude Code's UserPromptSubmit among them, see the
// prompt as the person typed it), last of the builtin prompt.submit hooks in the mods' list.
// What was not attached, and why, reaches the model as context and the person as a `ui.render`
// line (each front end shows it its way: in place in the REPL, on stderr for -p and ACP).

import type { GateDecision, Plugin, PluginApi } from "../../src/contract/index.js";
import { expandMentions, type MentionAllow } from "../../src/lib/mentions.js";

let mentionCalls = 0;

/**
 * The permission rules' answer for attaching `abs`: a `tool.check` for a Read of it, through the
 * whole chain — the permission gate, the managed policy, PreToolUse hooks all see it, as they
 * would see the model's own Read. Only an allow attaches. On an ask nobody is asked (the person
 * is typing a prompt, not approving a call): the mention stays text, and the model can Read it,
 * which asks. A failing check is a deny (gate events fail closed).
 */
export function mentionAllow(api: Pick<PluginApi, "dispatch">, sessionId: string): MentionAllow {
  return async (abs) => {
    let d: GateDecision;
    try {
      const callId = `mention-${++mentionCalls}`;
      d = await api.dispatch({ type: "tool.check", sessionId, tool: "Read", input: { file_path: abs }, callId, readOnly: true, step: 0 });
    } catch (err) {
      return { ok: false, reason: `the permission check failed (${(err as Error).message})` };
    }
    if (d.decision === "allow") return { ok: true };
    const why = d.reason ? ` (${d.reason})` : "";
    if (d.decision === "deny") return { ok: false, reason: `reading it is denied${why}` };
    return { ok: false, reason: `reading it needs approval${why}; the model can Read it, and you will be asked` };
  };
}

const plugin: Plugin = {
  id: "mentions",
  description: "@path in a prompt attaches that file (or a folder's listing), as the permission rules allow a Read of it",
  register(api) {
    api.on("prompt.submit", async (e, next) => {
      const r = await expandMentions(e.text, { allow: mentionAllow(api, e.sessionId), root: api.root });
      for (const text of r.notes) await api.dispatch({ type: "ui.render", item: { kind: "text", level: "warn", text } });
      const result = await next(r.text === e.text ? e : { ...e, text: r.text });
      if (r.notes.length === 0) return result;
      return { ...result, context: [...(result.context ?? []), ...r.notes] };
    });
  },
};

export default plugin;
