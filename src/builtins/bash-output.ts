// What the model sees of a command's output: what a person would want to see of it, with the
// whole of it one Read away (bash.ts keeps it in a file beside the session when anything here
// was left out).
//
// 1. Passing-test lines are counted, not shown. A test run prints one line per passing test
//    (TAP `ok 12 - …`, `✓ …`, `PASS …`, go's `--- PASS`, cargo's `… ... ok`, gtest's `[ OK ]`);
//    a run of PASS_RUN or more of them becomes one line, `[… 1,369 passing lines …]`. The
//    failures, their details and the summary lines stay where they were. What the model loses:
//    the names of the tests that passed, which it never needs to act on.
// 2. What is still longer than the budget keeps its start, the lines that say something went
//    wrong (with the lines around them: a failure's details follow it) from anywhere in the
//    middle, and its end (where the summary and the last error are), each gap marked with the
//    number of lines it holds. Measured on the peers bench (bench/peers, large tool outputs): a
//    3,600-line CI log with two failures in its middle came to the model as 30,000 characters
//    of head and tail without either failure, and the model ran it again to find them; now it
//    is eight lines with both.

/** Runs of at least this many passing-test lines are counted instead of shown. */
export const PASS_RUN = 5;
/** Outputs of fewer lines are shown as they are (while they fit the budget). */
const MIN_LINES = 30;
/** A longer line (minified code, one-line JSON) of an output that does not fit keeps its start. */
const MAX_LINE = 2000;

const PASSING: readonly RegExp[] = [
  /^\s*ok\b(?!:)/, // TAP (node --test, tap, prove); not "ok:" (a label)
  /^\s*[✓✔√]\s/, // mocha, vitest, jest
  /^\s*PASS\s/, // jest, vitest per file
  /^\s*--- PASS:/, // go test -v
  /^\s*=== (RUN|PAUSE|CONT)\s/, // go test -v progress
  /\s\.\.\. ok$/, // cargo test, python -m unittest -v
  /\sPASSED(\s+\[\s*\d+%\])?$/, // pytest -v
  /^\[\s+(OK|RUN)\s+\]/, // googletest
];

/** A line that says something went wrong, or sums a run up. */
const NOTABLE = /\b(not ok|fail(s|ed|ure|ures|ing)?|errors?|exception|panic(ked)?|traceback|assert(ion)?\w*|fatal|segmentation fault|warning|expected|summary|total)\b|[✗✖×]/i;
/** Lines kept after a notable one (a failure's details), and before it. */
const AFTER = 3;
const BEFORE = 1;

export interface Condensed {
  text: string;
  /** Lines left out (counted in markers); 0 when every line is shown. */
  omitted: number;
  /** Lines shown only in part (longer than MAX_LINE). */
  shortened: number;
}

export function condense(body: string, budget: number): Condensed {
  const all = body.split("\n");
  if (all.length < MIN_LINES && body.length <= budget) return { text: body, omitted: 0, shortened: 0 };
  let shortened = 0;
  const lines = all.map((l) => {
    if (l.length <= MAX_LINE) return l;
    shortened++;
    return `${l.slice(0, MAX_LINE)}… [line cut: ${l.length.toLocaleString("en-US")} characters]`;
  });
  const kept = collapsePassing(lines);
  let text = render(kept);
  if (text.length > budget) {
    const cut = headNotableTail(kept, budget);
    text = render(cut);
    return { text, omitted: lines.length - shownLines(cut), shortened };
  }
  return { text, omitted: lines.length - shownLines(kept), shortened };
}

function shownLines(pieces: readonly Piece[]): number {
  return pieces.filter((p) => p.text !== undefined).length;
}

/** A shown line, or a gap of `count` lines (`passing`: all of them passing-test lines). */
type Piece = { text: string; count?: undefined; passing?: undefined } | { text?: undefined; count: number; passing: boolean };

function collapsePassing(lines: readonly string[]): Piece[] {
  const out: Piece[] = [];
  for (let i = 0; i < lines.length; ) {
    let j = i;
    while (j < lines.length && PASSING.some((re) => re.test(lines[j]))) j++;
    if (j - i >= PASS_RUN) {
      out.push({ count: j - i, passing: true });
      i = j;
    } else {
      const end = Math.max(j, i + 1);
      for (; i < end; i++) out.push({ text: lines[i] });
    }
  }
  return out;
}

/** The start, the notable lines of the middle with their context, and the end, within budget. */
function headNotableTail(pieces: readonly Piece[], budget: number): Piece[] {
  const size = (p: Piece): number => (p.text !== undefined ? p.text.length + 1 : 32);
  const keep = new Array<boolean>(pieces.length).fill(false);
  const take = (from: number, step: 1 | -1, share: number): number => {
    let used = 0;
    let i = from;
    for (; i >= 0 && i < pieces.length; i += step) {
      if (used + size(pieces[i]) > share) break;
      used += size(pieces[i]);
      keep[i] = true;
    }
    return i;
  };
  const headEnd = take(0, 1, budget * 0.25);
  const tailStart = take(pieces.length - 1, -1, budget * 0.4);
  // The middle: notable lines with their context, in order, while the budget lasts.
  let left = budget * 0.35;
  for (let i = headEnd; i <= tailStart && left > 0; i++) {
    const p = pieces[i];
    if (p.text === undefined || !NOTABLE.test(p.text)) continue;
    for (let k = Math.max(headEnd, i - BEFORE); k <= Math.min(tailStart, i + AFTER); k++) {
      if (keep[k] || size(pieces[k]) > left) continue;
      keep[k] = true;
      left -= size(pieces[k]);
    }
  }
  const out: Piece[] = [];
  for (let i = 0; i < pieces.length; i++) {
    if (keep[i]) {
      out.push(pieces[i]);
      continue;
    }
    const p = pieces[i];
    const n = p.text !== undefined ? 1 : p.count;
    const last = out.at(-1);
    if (last && last.text === undefined) out[out.length - 1] = { count: last.count + n, passing: last.passing && p.passing === true };
    else out.push({ count: n, passing: p.passing === true });
  }
  return out;
}

function render(pieces: readonly Piece[]): string {
  return pieces.map((p) => (p.text !== undefined ? p.text : `[… ${p.count.toLocaleString("en-US")} ${p.passing ? "passing " : ""}line${p.count === 1 ? "" : "s"} …]`)).join("\n");
}
