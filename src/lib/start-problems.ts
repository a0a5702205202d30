// What the skills and agents mods say at start about files they skip: the person's own files
// one line each (theirs to fix), and the files of installed plugins — someone else's, read at
// every start — in one line per kind when there are several, naming the files; the listing
// (/skills, /agents) says why for each.

/** The lines to print at start for `problems` (each starting with its file's path); `pluginDirs`
 *  are the folders plugins contributed, `kind` what the files are ("agent", "skill"). */
export function startProblemLines(problems: readonly string[], pluginDirs: readonly string[], kind: string, listing: string): string[] {
  const ofPlugin = (p: string): string | undefined => pluginDirs.find((d) => p.startsWith(`${d}/`));
  const own = problems.filter((p) => !ofPlugin(p));
  const theirs = problems.filter((p) => ofPlugin(p));
  if (theirs.length <= 1) return [...own, ...theirs];
  const files = theirs.map((p) => /^(.+?\.md)(?=:)/.exec(p)?.[1] ?? p.slice(0, 60));
  return [...own, `${theirs.length} ${kind} files of installed plugins are skipped (${files.join(", ")}); ${listing} says why for each`];
}
