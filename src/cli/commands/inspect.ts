// A custom command's !`cmd` lines that only look (commit-commands' `git status`, `git diff HEAD`,
// `git branch --show-current`, `git log --oneline -10`) run without a prompt, as they do in Claude
// Code, whether or not the command's `allowed-tools` names them and whether or not the Bash
// sandbox is there to contain them.
//
// They still go through the Bash tool and its gate: what this grants is one exact allow rule
// (`Bash(<the line as run>)`) for the command's session while that line runs, and only when
//   - the shell reader calls the line read-only (tool-effects.ts `readOnly`: every part a known
//     reader, nothing written, nothing unsure, no option or variable that runs another program),
//   - no part escapes what a sandbox would contain (contained.ts: for git, a repository whose
//     history holds a secret file makes `git diff`/`git log -p` ask, as it does sandboxed),
//   - the rule reads back as exactly that line (no `*` turning it into a pattern).
// An allow never beats a deny or ask rule or the managed policy, and the gate still judges the
// line's reads (a secret file named on it is refused): so what the person's rules say wins.
// Only a command the person vouched for gets this (their own, a plugin's, a trusted project's
// covered by trust): run.ts calls it for those alone.

import { bashEffects } from "../../lib/effects/tool-effects.js";
import { escapesContainment } from "../permissions/containment/contained.js";
import { historyHoldsSecret } from "../permissions/containment/git-history.js";
import { parseRule } from "../permissions/rules.js";
import { parseShell } from "../../lib/shell/parser.js";

/** The exact allow rule that lets `command` run unprompted, or undefined when it must ask as usual. */
export function inspectionRule(command: string, env: { root: string; cwd: string; home: string }): string | undefined {
  const line = command.trim();
  if (line === "" || !bashEffects(line, env).readOnly) return undefined;
  const parsed = parseShell(line, { cwd: env.cwd, home: env.home });
  if (parsed.unsure.length > 0 || parsed.parts.some((p) => escapesContainment(p, env.root, env.home, historyHoldsSecret) !== null)) return undefined;
  const text = `Bash(${line})`;
  const r = parseRule({ kind: "allow", text, layer: "session" });
  if (!("rule" in r) || r.rule.match.type !== "bash-exact" || r.rule.match.whole !== line) return undefined;
  return text;
}
