// What `-p` says when a call that needs a person's yes is denied because nobody is there: the
// flag or settings rule that would allow it, and why the call asked. The rule goes where it
// applies: a trusted project's own .deepcode/settings.json, else the person's settings file
// (an untrusted project's settings are ignored for anything that loosens a rule, so naming
// them would send the person to a file that changes nothing). On stderr the advice is said in
// full once per rule; a later denial for the same rule only points back to it.

import { homedir } from "node:os";
import { join, relative, isAbsolute } from "node:path";

/** The settings file a `-p` denial names for a new allow rule: the project's when trusted, else the user's. */
export function adviceFile(trusted: boolean, home: string): string {
  if (trusted) return ".deepcode/settings.json";
  const file = join(home, "settings.json");
  const rel = relative(homedir(), file);
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? `~/${rel}` : file;
}

const LEAD = "deepcode runs non-interactively (-p), so nobody can approve ";

/** Why an ask became a deny in -p, and the rule that would allow it (what `a` would remember). */
export function nonInteractiveReason(tool: string, rule: string, why?: string, file = ".deepcode/settings.json", by?: string): string {
  const quoted = rule.includes("'") ? JSON.stringify(rule) : `'${rule}'`;
  const because = why ? ` It asks because ${why}.` : "";
  // A managed ask rule: no flag or setting of the person's lifts it (ask beats allow), so naming
  // --allowedTools would send them round in a loop.
  if (by?.endsWith(" (managed)")) {
    const rule = by.slice(0, -" (managed)".length);
    const lift = "nothing you pass or set lifts that; run it interactively to answer, or ask an administrator";
    return `${LEAD}${tool}: the managed policy asks about it (${rule}), and ${lift}.${because}`;
  }
  const untrusted = file === ".deepcode/settings.json" ? "" : " (this project is not trusted, so its own settings would not apply)";
  return `${LEAD}${tool}; to allow it, pass --allowedTools ${quoted} or add "${rule}" to permissions.allow in ${file}${untrusted}.${because}`;
}

/** The person's view of `-p` denials: the advice for a rule in full the first time, after that
 *  a pointer to it (the call's own "It asks because…" is kept: it differs per call). */
export class DenialAdvice {
  private readonly said = new Set<string>();

  /** `reason` as the line should say it. */
  shown(reason: string): string {
    if (!reason.startsWith(LEAD)) return reason;
    const at = reason.indexOf(". It asks because ");
    const advice = at < 0 ? reason : reason.slice(0, at + 1);
    const rest = at < 0 ? "" : reason.slice(at + 1);
    const rule = /--allowedTools ('[^']*'|"(?:[^"\\]|\\.)*")/.exec(advice)?.[1] ?? "";
    if (!this.said.has(advice)) {
      this.said.add(advice);
      return reason;
    }
    return `not approved in -p (allowed by ${rule}, as said above).${rest}`;
  }
}
