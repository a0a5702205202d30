// When a content search finds more lines than it may show (Grep without head_limit), the lines
// a coding model needs are the different ones, not the first thousand: a wide search for a
// call (`legacyFlag(`) finds the same call in thousands of files, and the one line that is not
// like the others (the definition) sits somewhere in the middle. So:
//   1. lines that differ only in their numbers (and their file) are shown once, followed by
//      `[… 2,999 more like it, numbers aside, in 2,999 files: a/x.js … z/x.js]`;
//   2. at most PER_FILE lines of one file, then `[… 57 more in a/x.js]`;
//   3. what is still over the limit keeps its first lines and its last TAIL ones.
// What the model loses: the exact lines of the repeats (their paths are named as a range, and
// head_limit, or files_with_matches, lists them all). Measured on the peers bench's large-output
// session (3,000 files): 32,685 characters without the definition → under 400 with it.

export const GREP_PER_FILE = 20;
const DUP_MIN = 3;
const TAIL = 10;

/** `path:12:text` (a match with its line number); context lines and `--` do not parse. */
const MATCH = /^(.+?):(\d+):(.*)$/;

interface Parsed {
  line: string;
  path: string;
  shape: string;
}

/** The lines to show, and how many of `lines` they leave out. */
export function digest(lines: readonly string[], limit: number): { lines: string[]; hidden: number } {
  const parsed: Array<Parsed | null> = lines.map((line) => {
    const m = MATCH.exec(line);
    return m ? { line, path: m[1], shape: m[3].replace(/\d+/g, "#").trim() } : null;
  });
  const groups = new Map<string, Parsed[]>();
  for (const p of parsed) {
    if (!p) continue;
    const g = groups.get(p.shape);
    if (g) g.push(p);
    else groups.set(p.shape, [p]);
  }
  const out: string[] = [];
  const perFile = new Map<string, number>();
  const overflow = new Map<string, number>();
  let shownLines = 0;
  const flushOverflow = (path: string): void => {
    const n = overflow.get(path);
    if (n) out.push(`[… ${fmt(n)} more in ${path}]`);
    overflow.delete(path);
  };
  let lastPath: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const p = parsed[i];
    if (!p) {
      out.push(lines[i]);
      shownLines++;
      continue;
    }
    if (lastPath !== undefined && lastPath !== p.path) flushOverflow(lastPath);
    lastPath = p.path;
    const group = groups.get(p.shape)!;
    if (group.length >= DUP_MIN && group[0] !== p) continue; // shown once, with its count
    const seen = perFile.get(p.path) ?? 0;
    if (seen >= GREP_PER_FILE) {
      overflow.set(p.path, (overflow.get(p.path) ?? 0) + 1);
      continue;
    }
    perFile.set(p.path, seen + 1);
    out.push(p.line);
    shownLines++;
    if (group.length >= DUP_MIN) {
      const files = [...new Set(group.slice(1).map((g) => g.path))];
      const range = files.length === 1 ? files[0] : `${files[0]} … ${files.at(-1)}`;
      out.push(`[… ${fmt(group.length - 1)} more like it, numbers aside, in ${fmt(files.length)} file${files.length === 1 ? "" : "s"}: ${range}]`);
    }
  }
  if (lastPath !== undefined) flushOverflow(lastPath);
  if (out.length <= limit) return { lines: out, hidden: lines.length - shownLines };
  const head = out.slice(0, limit - TAIL);
  const tail = out.slice(-TAIL);
  const cut = out.length - head.length - tail.length;
  const cutLines = out.slice(head.length, out.length - TAIL).filter((l) => !l.startsWith("[… ")).length;
  return { lines: [...head, `[… ${fmt(cut)} more lines of results …]`, ...tail], hidden: lines.length - shownLines + cutLines };
}

function fmt(n: number): string {
  return n.toLocaleString("en-US");
}
