// Where Edit's old_string is in a file. Exact first; when that finds nothing, normalising passes
// in a fixed order, each adding one normalisation to the ones before it:
//   trailing whitespace → indentation → line endings → typographic quotes → escaped sequences
//   (\n, \t written literally) → flexible whitespace runs.
// A pass counts only if it finds exactly one place: several places are reported as candidates
// (line numbers and lines) and nothing is changed — the tool never guesses between them.

export type PassName = "exact" | "trailing-whitespace" | "indentation" | "line-endings" | "quotes" | "escapes" | "whitespace";

export const PASS_LABELS: Record<PassName, string> = {
  exact: "exactly",
  "trailing-whitespace": "ignoring trailing whitespace",
  indentation: "ignoring indentation",
  "line-endings": "ignoring line endings",
  quotes: "ignoring typographic quotes",
  escapes: "after unescaping \\n, \\t and quotes written literally",
  whitespace: "ignoring differences in whitespace",
};

export type MatchResult =
  | { kind: "found"; pass: PassName; ranges: Array<[number, number]>; replacement: string }
  | { kind: "ambiguous"; pass: PassName; lines: number[] }
  | { kind: "none" };

/** A normalised text: char i came from original [start[i], end[i]). */
interface Norm {
  text: string;
  start: number[];
  end: number[];
}

type Step = (n: Norm) => Norm;

const QUOTES: Record<string, string> = { "‘": "'", "’": "'", "‚": "'", "‛": "'", "“": '"', "”": '"', "„": '"', "‟": '"' };

const trailing: Step = (n) => rewrite(n, /[ \t\f\v]+(?=\r?\n|$)/g, () => "");
const indentation: Step = (n) => rewrite(n, /(?<=^|\n)[ \t]+/g, () => "");
const lineEndings: Step = (n) => rewrite(n, /\r\n?/g, () => "\n");
const quotes: Step = (n) => rewrite(n, /[‘’‚‛“”„‟]/g, (m) => QUOTES[m]);
const whitespace: Step = (n) => rewrite(n, /\s+/g, () => " ");

const PASSES: Array<{ name: PassName; steps: Step[]; unescape?: boolean; trim?: boolean }> = [
  { name: "trailing-whitespace", steps: [trailing] },
  { name: "indentation", steps: [trailing, indentation] },
  { name: "line-endings", steps: [trailing, indentation, lineEndings] },
  { name: "quotes", steps: [trailing, indentation, lineEndings, quotes] },
  { name: "escapes", steps: [trailing, indentation, lineEndings, quotes], unescape: true },
  { name: "whitespace", steps: [lineEndings, quotes, whitespace], unescape: true, trim: true },
];

/** Find old_string in text. `replaceAll` applies to exact matches only. */
export function findMatch(text: string, oldString: string, newString: string, replaceAll: boolean): MatchResult {
  const exact = occurrences(text, oldString);
  if (exact.length === 1 || (exact.length > 1 && replaceAll)) {
    return { kind: "found", pass: "exact", ranges: exact.map((i) => [i, i + oldString.length]), replacement: newString };
  }
  if (exact.length > 1) return { kind: "ambiguous", pass: "exact", lines: exact.map((i) => lineOf(text, i)) };

  let lastSteps: Step[] = [];
  let hay = identity(text);
  for (const pass of PASSES) {
    if (pass.steps !== lastSteps) {
      hay = pass.steps.reduce((n, step) => step(n), identity(text));
      lastSteps = pass.steps;
    }
    const needleRaw = pass.unescape ? unescape(oldString) : oldString;
    let needle = pass.steps.reduce((n, step) => step(n), identity(needleRaw)).text;
    if (pass.trim) needle = needle.trim();
    if (needle === "") continue;
    const found = occurrences(hay.text, needle);
    if (found.length === 0) continue;
    if (found.length > 1) return { kind: "ambiguous", pass: pass.name, lines: found.map((i) => lineOf(text, hay.start[i])) };
    const from = hay.start[found[0]];
    const to = hay.end[found[0] + needle.length - 1];
    let replacement = pass.unescape ? unescape(newString) : newString;
    if (pass.name === "indentation" || pass.name === "line-endings" || pass.name === "quotes" || pass.name === "escapes") {
      replacement = reindent(replacement, needleRaw, indentBefore(text, from));
    }
    replacement = matchQuoteStyle(replacement, text.slice(from, to));
    return { kind: "found", pass: pass.name, ranges: [[from, to]], replacement };
  }
  return { kind: "none" };
}

function identity(text: string): Norm {
  const start = new Array<number>(text.length);
  const end = new Array<number>(text.length);
  for (let i = 0; i < text.length; i++) {
    start[i] = i;
    end[i] = i + 1;
  }
  return { text, start, end };
}

/** Replace each match of `re`; the replacement's chars map to the whole matched original span. */
function rewrite(n: Norm, re: RegExp, rep: (m: string) => string): Norm {
  const out: Norm = { text: "", start: [], end: [] };
  const parts: string[] = [];
  let last = 0;
  const copy = (from: number, to: number): void => {
    parts.push(n.text.slice(from, to));
    for (let i = from; i < to; i++) {
      out.start.push(n.start[i]);
      out.end.push(n.end[i]);
    }
  };
  for (const m of n.text.matchAll(re)) {
    const at = m.index;
    copy(last, at);
    const r = rep(m[0]);
    parts.push(r);
    const s = at < n.text.length ? n.start[at] : n.end[n.text.length - 1] ?? 0;
    const e = m[0].length ? n.end[at + m[0].length - 1] : s;
    for (let i = 0; i < r.length; i++) {
      out.start.push(s);
      out.end.push(e);
    }
    last = at + m[0].length;
  }
  copy(last, n.text.length);
  out.text = parts.join("");
  return out;
}

export function occurrences(hay: string, needle: string): number[] {
  const found: number[] = [];
  if (needle === "") return found;
  for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + needle.length)) found.push(i);
  return found;
}

/** 1-based line of offset `i`. */
export function lineOf(text: string, i: number): number {
  let n = 1;
  for (let j = text.indexOf("\n"); j >= 0 && j < i; j = text.indexOf("\n", j + 1)) n++;
  return n;
}

/** The model wrote escapes literally (`\n` as backslash + n): turn them into what they stand for. */
const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r" };
function unescape(s: string): string {
  return s.replace(/\\(n|t|r|"|'|`|\\)/g, (_, c: string) => ESCAPES[c] ?? c);
}

function indentBefore(text: string, at: number): string {
  const lineStart = text.lastIndexOf("\n", at - 1) + 1;
  const m = /^[ \t]*/.exec(text.slice(lineStart, at));
  return m && lineStart + m[0].length === at ? m[0] : "";
}

/**
 * Shift new_string's indentation by the difference between old_string's first line and the
 * file's matched first line. The first line goes where the match starts (after the file's
 * indentation); other lines indented like old_string's first line get the file's instead.
 */
function reindent(replacement: string, oldString: string, fileIndent: string): string {
  const oldIndent = /^[ \t]*/.exec(oldString.replace(/^\s*\n/, ""))![0];
  const lines = replacement.split("\n");
  return lines
    .map((line, i) => {
      const own = /^[ \t]*/.exec(line)![0];
      if (i === 0) return own.startsWith(oldIndent) ? line.slice(oldIndent.length) : line.trimStart();
      if (line.trim() === "") return line;
      if (own.startsWith(oldIndent)) return fileIndent + line.slice(oldIndent.length);
      const shortBy = oldIndent.length - own.length;
      return fileIndent.length >= shortBy ? fileIndent.slice(0, fileIndent.length - shortBy) + line.trimStart() : line.trimStart();
    })
    .join("\n");
}

/** Give new_string the quote style of the text it replaces (typographic or straight). */
function matchQuoteStyle(replacement: string, original: string): string {
  const curlyDouble = /[“”]/.test(original);
  const curlySingle = /[‘’]/.test(original);
  let out = replacement;
  if (curlyDouble && !/"/.test(original)) out = out.replace(/"/g, (_m, at: number) => (opens(out, at) ? "“" : "”"));
  else if (!curlyDouble && /"/.test(original)) out = out.replace(/[“”]/g, '"');
  if (curlySingle && !/'/.test(original)) out = out.replace(/'/g, (_m, at: number) => (opens(out, at) ? "‘" : "’"));
  else if (!curlySingle && /'/.test(original)) out = out.replace(/[‘’]/g, "'");
  return out;
}

function opens(s: string, at: number): boolean {
  return at === 0 || /[\s([{\-—–]/.test(s[at - 1]);
}
