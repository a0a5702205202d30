// Every permission rule with the layer it came from, for `/permissions` and `deepcode permissions`.

import { compileRules, type Rule } from "../permissions/rules.js";
import type { LoadedSettings, RuleSource } from "./types.js";

/** A rule as written, with where it came from, and why it is ignored if it is. */
export interface RuleDescription extends RuleSource {
  ignored?: string;
}

/** Settings rules in layer order, then the session's `a` answers. */
export function describeRules(loaded: LoadedSettings, session: readonly Rule[] = []): RuleDescription[] {
  const out: RuleDescription[] = loaded.rules.map((src) => {
    const { warnings } = compileRules([src]);
    const d: RuleDescription = { kind: src.kind, text: src.text, layer: src.layer, file: src.file, line: src.line, column: src.column };
    if (warnings.length > 0) d.ignored = warnings[0].replace(/^.*? ignored: /, "");
    return d;
  });
  for (const r of session) out.push({ kind: r.kind, text: r.text, layer: "session" });
  return out;
}

/** A table grouped deny → ask → allow (the order decisions use), one rule per line. */
export function formatRules(rules: readonly RuleDescription[], loaded?: LoadedSettings): string {
  const lines: string[] = [];
  if (loaded?.managed.state === "broken") lines.push(`MANAGED POLICY BROKEN (${loaded.managed.problem ?? loaded.managed.path}): every tool call is denied`, "");
  const width = Math.min(48, Math.max(8, ...rules.map((r) => r.text.length)));
  for (const kind of ["deny", "ask", "allow"] as const) {
    const group = rules.filter((r) => r.kind === kind);
    lines.push(`${kind} (${group.length})`);
    for (const r of group) {
      const where = r.file ? `  ${r.file}${r.line ? `:${r.line}` : ""}` : "";
      const ignored = r.ignored ? `  [ignored: ${r.ignored}]` : "";
      lines.push(`  ${r.text.padEnd(width)}  ${r.layer.padEnd(7)}${where}${ignored}`);
    }
  }
  lines.push("", "Order: deny > ask > allow, whatever the layer. Defaults: read-only tools allow; Write, Edit and Bash ask.");
  return lines.join("\n");
}

/** For `/status`: the settings files in force (Claude Code's among them, named as such), then one
 *  line per permission rule with the file and line it came from (home shown as `~`). */
export function settingsStatus(loaded: LoadedSettings, userHome: string, root: string): string[] {
  const show = (f: string): string => (f.startsWith(root + "/") ? f.slice(root.length + 1) : f.startsWith(userHome + "/") ? `~/${f.slice(userHome.length + 1)}` : f);
  const files = loaded.layers.filter((l) => l.present && !l.file.startsWith("--")).map((l) => `${show(l.file)} (${l.name}${/[\\/]\.claude[\\/]settings(\.local)?\.json$/.test(l.file) ? ", Claude Code's" : ""})`);
  const out = [`settings   ${files.length ? files.join(", ") : "none (defaults)"}`];
  if (loaded.rules.length === 0) return [...out, "rules      none (defaults: read-only tools allow; Write, Edit and Bash ask)"];
  const width = Math.min(40, Math.max(...loaded.rules.map((r) => r.text.length)));
  out.push(`rules      ${loaded.rules.length} (deny > ask > allow, whatever the file):`);
  for (const r of loaded.rules) out.push(`  ${r.kind.padEnd(5)} ${r.text.padEnd(width)}  ${r.file ? `${show(r.file)}${r.line ? `:${r.line}` : ""}` : r.layer}`);
  return out;
}
