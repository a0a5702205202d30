// The session's `a` answers: a sixth rule layer ("session") that only ever holds allow rules.
// Because deny > ask > allow regardless of layer, nothing remembered here can beat a deny or an
// explicit ask of any settings layer. `/permissions forget` clears it.
//
// `a` answers hold for everything the person's session runs, its subagents included (the person
// said "this kind, for the session"). Temporary allows (a custom command's or a skill's
// `allowed-tools`) may be scoped to one engine session: they then hold for that session only,
// never for the subagents it spawns.

import { parseRule, type Rule } from "./rules.js";

export class SessionRules {
  private list: Rule[] = [];
  /** Allow rules granted for a while (a custom command's `allowed-tools`, during its turn),
   *  for one session (`sessionId`) or, without one, for every session. */
  private temp: Array<{ rule: Rule; sessionId?: string }> = [];

  /** Remember an allow rule (the text rememberRule produced). Throws when it does not parse. */
  add(text: string): Rule {
    const rule: Rule = { ...parse(text), exact: true };
    const existing = this.list.find((r) => r.text === rule.text);
    if (existing) return existing;
    this.list.push(rule);
    return rule;
  }

  /** Allow rules until the returned function is called. Allow rules like `a` answers: they can
   *  never beat a deny or an ask rule. */
  temporary(texts: readonly string[], sessionId?: string): () => void {
    const added: Array<{ rule: Rule; sessionId?: string }> = texts.map((t) => ({ rule: parse(t), sessionId }));
    this.temp.push(...added);
    return () => {
      this.temp = this.temp.filter((r) => !added.includes(r));
    };
  }

  forget(): number {
    const n = this.list.length;
    this.list = [];
    return n;
  }

  /** The rules in force for a session's calls (without one: the `a` answers and the
   *  temporary allows of no particular session). */
  rules(sessionId?: string): readonly Rule[] {
    if (this.temp.length === 0) return this.list;
    return [...this.list, ...this.temp.filter((t) => t.sessionId === undefined || t.sessionId === sessionId).map((t) => t.rule)];
  }
}

function parse(text: string): Rule {
  const parsed = parseRule({ kind: "allow", text, layer: "session" });
  if ("problem" in parsed) throw new Error(`cannot remember ${JSON.stringify(text)}: ${parsed.problem}`);
  return parsed.rule;
}
