// The session's `a` answers: a sixth rule layer ("session") that only ever holds allow rules.
// Because deny > ask > allow regardless of layer, nothing remembered here can beat a deny or an
// explicit ask of any settings layer. `/permissions forget` clears it.

import { parseRule, type Rule } from "./rules.js";

export class SessionRules {
  private list: Rule[] = [];

  /** Remember an allow rule (the text rememberRule produced). Throws when it does not parse. */
  add(text: string): Rule {
    const parsed = parseRule({ kind: "allow", text, layer: "session" });
    if ("problem" in parsed) throw new Error(`cannot remember ${JSON.stringify(text)}: ${parsed.problem}`);
    if (!this.list.some((r) => r.text === parsed.rule.text)) this.list.push(parsed.rule);
    return parsed.rule;
  }

  forget(): number {
    const n = this.list.length;
    this.list = [];
    return n;
  }

  rules(): readonly Rule[] {
    return this.list;
  }
}
