// The session's `a` answers: a sixth rule layer ("session") that only ever holds allow rules.
// Because deny > ask > allow regardless of layer, nothing remembered here can beat a deny or an
// explicit ask of any settings layer. `/permissions forget` clears it.

import { parseRule, type Rule } from "./rules.js";

export class SessionRules {
  private list: Rule[] = [];
  /** Allow rules granted for a while (a custom command's `allowed-tools`, during its turn). */
  private temp: Rule[] = [];

  /** Remember an allow rule (the text rememberRule produced). Throws when it does not parse. */
  add(text: string): Rule {
    const rule = parse(text);
    const existing = this.list.find((r) => r.text === rule.text);
    if (existing) return existing;
    this.list.push(rule);
    return rule;
  }

  /** Allow rules until the returned function is called. Allow rules like `a` answers: they can
   *  never beat a deny or an ask rule. */
  temporary(texts: readonly string[]): () => void {
    const added = texts.map(parse);
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

  rules(): readonly Rule[] {
    return this.temp.length ? [...this.list, ...this.temp] : this.list;
  }
}

function parse(text: string): Rule {
  const parsed = parseRule({ kind: "allow", text, layer: "session" });
  if ("problem" in parsed) throw new Error(`cannot remember ${JSON.stringify(text)}: ${parsed.problem}`);
  return parsed.rule;
}
