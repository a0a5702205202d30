// The project's rules as Claude Code keeps them: `.claude/rules/**/*.md`. A rule without `paths:`
// in its header applies everywhere and is sent whole, as Claude Code loads it at start. A rule
// with `paths:` (globs: `src/api/**`, `**/*.ts`) applies only to matching files; Claude Code adds
// it when it works on one. deepcode's prefix is fixed for the session (the cache), so such a rule
// is named in the same section with its globs, for the model to read before it works on those
// files, and its text rides on no request that does not need it.

import { join, relative } from "node:path";
import type { PluginApi, SystemSection } from "../../src/contract/index.js";
import { listField, parseFrontmatter } from "../../src/lib/frontmatter.js";
import { mdFilesBelow } from "../../src/lib/md-files.js";

/** The rules section (none when the project has no rules); `refused` receives why a rule file
 *  that stands was not read. The whole section is held to `max` characters. */
export function ruleSections(readOwn: PluginApi["readOwnFile"], root: string, max: number, refused: string[]): SystemSection[] {
  const always: string[] = [];
  const scoped: string[] = [];
  for (const file of mdFilesBelow(join(root, ".claude", "rules"))) {
    const r = readOwn(file, { within: [root], maxBytes: max * 4 + 4 });
    if (!r.ok) {
      if (!r.missing) refused.push(r.reason);
      continue;
    }
    const shown = relative(root, file);
    const fm = parseFrontmatter(r.text);
    const paths = fm.fields.get("paths");
    const globs = paths ? listField(paths).filter(Boolean) : [];
    if (globs.length) scoped.push(`- ${shown}: for files matching ${globs.join(", ")}`);
    else if (fm.body.trim()) always.push(`### ${shown}\n\n${fm.body.trim()}`);
  }
  if (!always.length && !scoped.length) return [];
  const parts = [...always];
  if (scoped.length) parts.push(`Rules for some files only: read the rule with Read before you work on a file it names.\n${scoped.join("\n")}`);
  let text = `The project's rules (.claude/rules):\n\n${parts.join("\n\n")}`;
  let note: string | undefined;
  if (text.length > max) {
    note = `.claude/rules holds ${text.length} characters; only the first ${max.toLocaleString("en-US")} are sent (raise or lower the limit with settings pluginConfig.instructions.maxChars)`;
    text = `${text.slice(0, max)}\n[… cut by deepcode: ${text.length - max} more characters]`;
  }
  return [note ? { id: "instructions:rules", text, note } : { id: "instructions:rules", text }];
}
