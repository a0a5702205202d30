// What the person sees while a reply streams: tool-call markup is held back from the display
// (`model.stream`) until the whole reply has been judged (`model.response`). Then whatever of
// the final answer was not shown yet is shown: the prose around recognised calls, or the markup
// itself when it was not taken as a call (an example, a form deepcode cannot read). So markup
// turned into calls never reaches the screen, and nothing else is lost — only delayed.
// Markup inside a code fence or an inline code span is not held: it is shown text either way.

import type { ModelDelta } from "../../contract/index.js";

/** Where tool-call markup may begin: a DSML or V3 token, an XML-ish call tag, [TOOL_REQUEST];
 *  or `<think>`/`</think>` (reasoning in the content, moved out by think.ts). */
const OPENER = /<\s*(?:\/\s*)?(?:[｜|‖]|invoke\b|function_calls?\b|tool_call\b|function[=>]|tool>|think>)|\[TOOL_REQUEST\]/;
/** A `<` near the end that could still grow into an opener. */
const PARTIAL = /<[^>\n]{0,16}$|\[T?O?O?L?_?R?E?Q?U?E?S?T?$/;

interface StepState {
  step: number;
  shown: string;
  held: string;
  holding: boolean;
  fenceOpen: boolean;
  line: string;
}

export class StreamHold {
  private s: StepState = fresh(0);

  /** The content delta to pass on now ("" for none). */
  content(step: number, text: string): string {
    if (step !== this.s.step) this.s = fresh(step);
    const s = this.s;
    if (s.holding) {
      s.held += text;
      return "";
    }
    const all = s.held + text;
    s.held = "";
    let cut = all.length;
    const m = OPENER.exec(all);
    if (m && !this.quoted(all.slice(0, m.index))) {
      cut = m.index;
      s.holding = true;
    } else {
      const p = PARTIAL.exec(all);
      if (p && !this.quoted(all.slice(0, p.index))) cut = p.index;
    }
    s.held = all.slice(cut);
    return this.pass(all.slice(0, cut));
  }

  /** The reply is judged: what of its final content the person has not seen yet. */
  finish(step: number, finalContent: string): string {
    if (step !== this.s.step) return "";
    const shown = this.s.shown;
    this.s = fresh(step + 1);
    if (!shown && !finalContent) return "";
    let i = 0;
    while (i < shown.length && i < finalContent.length && shown[i] === finalContent[i]) i++;
    return finalContent.slice(i);
  }

  private pass(text: string): string {
    const s = this.s;
    s.shown += text;
    for (const ch of text) {
      if (ch === "\n") {
        if (/^\s{0,3}(```|~~~)/.test(s.line)) s.fenceOpen = !s.fenceOpen;
        s.line = "";
      } else s.line += ch;
    }
    return text;
  }

  /** Inside a fence or an inline code span, given the text before the position. */
  private quoted(before: string): boolean {
    const s = this.s;
    const lines = (s.line + before).split("\n");
    let open = s.fenceOpen;
    for (const l of lines.slice(0, -1)) if (/^\s{0,3}(```|~~~)/.test(l)) open = !open;
    const current = lines[lines.length - 1];
    return open || ((current.match(/`/g) ?? []).length % 2) === 1;
  }
}

function fresh(step: number): StepState {
  return { step, shown: "", held: "", holding: false, fenceOpen: false, line: "" };
}

export function contentDelta(text: string): ModelDelta {
  return { kind: "content", text };
}
