// Shared by the permission tests: a real temporary workspace and rules built from layers.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compileRules, decide, type DecisionEnv, type Rule } from "../../src/cli/permissions/index.js";
import type { RuleKind, RuleLayer } from "../../src/cli/settings/index.js";

export interface Workspace {
  base: string;
  root: string;
  home: string;
  env: DecisionEnv;
  cleanup(): void;
}

/** `<tmp>/ws` is the project root, `<tmp>/home` the home folder; both real (no symlinks). */
export function makeWorkspace(): Workspace {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "deepcode-perm-")));
  const root = join(base, "ws");
  const home = join(base, "home");
  mkdirSync(join(root, "src"), { recursive: true });
  mkdirSync(home);
  return { base, root, home, env: { root, home, cwd: root }, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

export type LayerRules = Partial<Record<RuleKind, string[]>>;

/** Rules as settings would give them: layer by layer, each kind's texts in order. */
export function rulesOf(layers: Partial<Record<RuleLayer, LayerRules>>): Rule[] {
  const sources = Object.entries(layers).flatMap(([layer, kinds]) =>
    Object.entries(kinds ?? {}).flatMap(([kind, texts]) => (texts ?? []).map((text) => ({ kind: kind as RuleKind, text, layer: layer as RuleLayer }))),
  );
  const { rules, warnings } = compileRules(sources);
  if (warnings.length > 0) throw new Error(`test rules did not compile: ${warnings.join("; ")}`);
  return rules;
}

export function bash(command: string, rules: Rule[], env: DecisionEnv): string {
  return decide({ tool: "Bash", input: { command }, readOnly: false }, rules, env).decision;
}
