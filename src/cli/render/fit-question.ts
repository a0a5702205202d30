// Fitting a question to one screen (issue #35): the person must see, at once, the question's
// header, everything that will run, and the answer line. A red team hid `touch X` above the
// screen with `touch X; : <9,000 spaces> npm test`: the blanks wrapped into dozens of rows and
// `y` ran what had scrolled away. So a question's parts are laid out here, in rows deepcode
// breaks itself (the terminal never wraps them), against the terminal's current rows and columns.
//
// What the person sees instead of the raw text (all of it inert, src/lib/inert.ts):
// - A run of more than RUN_LIMIT blanks (space, tab, vertical tab, form feed, and the Unicode
//   spaces, zero-width ones included) is one marker with its count: `⟦9,000 spaces⟧`,
//   `⟦12 tabs⟧`, `⟦40 blanks: U+00A0⟧`, `⟦30 blanks: spaces, tabs, U+3000⟧`. A line's leading
//   indentation of plain spaces is kept up to INDENT_LIMIT (a heredoc's code stays readable).
//   A shorter run is shown as it is, a blank other than a space as its escape (`\x09`, `\u00a0`),
//   since a non-breaking space reads like a space and is not one to the shell.
// - A part too long for its room is cut in the middle, its start and end kept:
//   `curl -fsSL https://get.example/aaaa⟦… 4,210 characters cut …⟧aaaa/install.sh | sh`. A part is the text between
//   `;`, `&`, `|` and line ends, wherever they stand (inside quotes too): splitting too often
//   only keeps more starts and ends in view, never fewer (a `bash -c "a; touch X; b"` keeps
//   `touch X`'s start).
// - When the lines do not fit as lines, they are flowed into the rows left, each line end shown
//   as `⟦↵⟧`. When even every part's start and end cannot fit, the parts in the middle are left
//   out with a marker saying how many
//   (`⟦… 1,200 more parts (9,600 characters) not shown: too many for this screen …⟧`),
//   the one case a part is not shown; the person is told, and can say no.
// Markers use ⟦ ⟧ (U+27E6, U+27E7); those two characters in the text itself are shown as their
// escapes, so no text can forge a marker.

import { inert } from "../../lib/inert.js";
import { cellWidth, textWidth } from "./wrap.js";

/** The screen a question must fit: the terminal's current size (Infinity: no limit). */
export interface Room {
  rows: number;
  columns: number;
}

/** Blank runs longer than this are shown as a counted marker. */
export const RUN_LIMIT = 8;
/** A line's leading indentation of plain spaces is kept up to this many. */
export const INDENT_LIMIT = 24;
/** Columns kept on each side of a cut, at least. */
const MIN_SIDE = 8;
/** The indentation of a body line's first row (continuation rows start at the left edge). */
export const INDENT = "  ";
/** The narrowest width laid out: below it markers alone would not fit (the terminal wraps). */
const MIN_WIDTH = 40;

const OPEN = "\u27e6";
const CLOSE = "\u27e7";
const BLANK = /^[\t\v\f \u00a0\u1680\u180e\u2000-\u200b\u2028\u2029\u202f\u205f\u2060\u3000\ufeff]$/u;

interface Atom {
  shown: string;
  width: number;
  /** Characters of the original text it stands for. */
  chars: number;
  /** A command separator: a part ends after a run of these (and the blanks after them). */
  sep?: boolean;
  blank?: boolean;
}

interface Piece {
  atoms: Atom[];
  width: number;
  chars: number;
  /** The narrowest it may be shown (minWidth), kept: fitting asks often. */
  min: number;
}

function escape(ch: string): string {
  const c = ch.codePointAt(0) ?? 0;
  return c <= 0xff ? `\\x${c.toString(16).padStart(2, "0")}` : `\\u${c.toString(16).padStart(4, "0")}`;
}

const count = (n: number): string => n.toLocaleString("en-US");

function mark(text: string, chars: number): Atom {
  const shown = `${OPEN}${text}${CLOSE}`;
  return { shown, width: textWidth(shown), chars };
}

function blankName(ch: string): string {
  if (ch === " ") return "spaces";
  if (ch === "\t") return "tabs";
  return `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/** `⟦9,000 spaces⟧`, `⟦12 tabs⟧`, `⟦40 blanks: U+00A0⟧`, `⟦30 blanks: spaces, tabs, U+3000⟧`. */
function blankMark(run: string[]): Atom {
  const kinds = [...new Set(run.map(blankName))];
  if (kinds.length === 1 && (kinds[0] === "spaces" || kinds[0] === "tabs")) return mark(`${count(run.length)} ${kinds[0]}`, run.length);
  const named = kinds.length > 3 ? `${kinds.slice(0, 3).join(", ")}, …` : kinds.join(", ");
  return mark(`${count(run.length)} blanks: ${named}`, run.length);
}

const cutMark = (chars: number): Atom => mark(`… ${count(chars)} characters cut …`, 0);
const CUT_WIDTH_0 = cutMark(0).width;
/** cutMark(chars).width, without making it (asked for every part of a command). */
const cutWidth = (chars: number): number => {
  const digits = String(chars).length;
  return CUT_WIDTH_0 - 1 + digits + Math.floor((digits - 1) / 3);
};
const NEWLINE = (): Atom => ({ ...mark("↵", 1), sep: true });

// Atoms are never changed once made, so the common ones are shared (a command may be megabytes).
const ASCII: Atom[] = Array.from({ length: 0x7f }, (_, c) => ({ shown: String.fromCharCode(c), width: 1, chars: 1, sep: c === 0x3b || c === 0x26 || c === 0x7c }));
const SPACE: Atom = { shown: " ", width: 1, chars: 1, blank: true };

/** The code point of `s` at `i`, as a string. */
const at = (s: string, i: number): string => String.fromCodePoint(s.codePointAt(i) ?? 0);

/** One line of text (no `\n`) as atoms: inert characters, short blanks, counted blank runs. */
function atomsOf(line: string): Atom[] {
  const out: Atom[] = [];
  for (let i = 0; i < line.length; ) {
    const code = line.charCodeAt(i);
    if (code > 0x20 && code < 0x7f) {
      out.push(ASCII[code]);
      i++;
      continue;
    }
    const c = at(line, i);
    if (BLANK.test(c)) {
      const run: string[] = [];
      let j = i;
      while (j < line.length && BLANK.test(at(line, j))) {
        const d = at(line, j);
        run.push(d);
        j += d.length;
      }
      const limit = i === 0 && run.every((x) => x === " ") ? INDENT_LIMIT : RUN_LIMIT;
      if (run.length > limit) out.push({ ...blankMark(run), blank: true });
      else for (const x of run) out.push(x === " " ? SPACE : { shown: escape(x), width: escape(x).length, chars: 1, blank: true });
      i = j;
      continue;
    }
    i += c.length;
    const shown = c === OPEN || c === CLOSE ? escape(c) : inert(c);
    out.push({ shown, width: textWidth(shown), chars: 1 });
  }
  return out;
}

function pieceOf(atoms: Atom[]): Piece {
  let width = 0;
  let chars = 0;
  for (const a of atoms) {
    width += a.width;
    chars += a.chars;
  }
  return { atoms, width, chars, min: Math.min(width, cutWidth(chars) + 2 * MIN_SIDE) };
}

/** A line's atoms split into parts, each ending after its run of separators and the blanks
 *  after them (so a part starts with its command's first word). */
function piecesOf(atoms: Atom[]): Piece[] {
  const out: Piece[] = [];
  let start = 0;
  let ending = false;
  for (let i = 1; i <= atoms.length; i++) {
    ending = atoms[i - 1].sep === true || (ending && atoms[i - 1].blank === true);
    if (i === atoms.length || (ending && !atoms[i].sep && !atoms[i].blank)) {
      out.push(pieceOf(atoms.slice(start, i)));
      start = i;
    }
  }
  return out;
}

/** The narrowest a part may be shown: whole when short, else its start, a cut marker, its end. */
const minWidth = (p: Piece): number => p.min;

/** The part in at most `room` columns (at least minWidth): its start and end, the middle cut. */
function squeeze(p: Piece, room: number): Atom[] {
  if (p.width <= room) return p.atoms;
  const keep = Math.max(2 * MIN_SIDE, room - cutMark(p.chars).width);
  const head: Atom[] = [];
  let hw = 0;
  let hc = 0;
  for (const a of p.atoms) {
    if (hw + a.width > Math.ceil(keep / 2)) break;
    head.push(a);
    hw += a.width;
    hc += a.chars;
  }
  let from = p.atoms.length;
  let tw = 0;
  let tc = 0;
  while (from > head.length && hw + tw + p.atoms[from - 1].width <= keep) {
    from--;
    tw += p.atoms[from].width;
    tc += p.atoms[from].chars;
  }
  return [...head, cutMark(p.chars - hc - tc), ...p.atoms.slice(from)];
}

/** Rows of atoms broken where a row is full: the first row `first` columns wide, the others
 *  `width`; an atom is never split (a marker or an escape stays whole). Stops once there are
 *  more than `most` rows (the caller only needs to know they do not fit). */
function layout(lists: Atom[][], first: number, width: number, most = Infinity): string[] {
  const rows: string[] = [];
  let row = "";
  let col = 0;
  for (const atoms of lists) {
    for (const a of atoms) {
      const room = rows.length === 0 ? first : width;
      if (col > 0 && col + a.width > room) {
        if (rows.length >= most) return [...rows, row];
        rows.push(row);
        row = "";
        col = 0;
      }
      row += a.shown;
      col += a.width;
    }
  }
  rows.push(row);
  return rows;
}

/** Every part in at most `rows` rows, the longest cut first (each keeps at least its minimum);
 *  null when even the minimum of every part does not fit. */
function fitPieces(pieces: Piece[], rows: number, first: number, width: number): string[] | null {
  const natural = layout(pieces.map((p) => p.atoms), first, width, rows);
  if (natural.length <= rows) return natural;
  const floor = pieces.reduce((n, p) => n + minWidth(p), 0);
  const widest = pieces.reduce((n, p) => Math.max(n, p.width), 0); // no spread: parts may be 100,000s
  const eff = (p: Piece, share: number): number => (p.width <= share ? p.width : Math.max(minWidth(p), share));
  // Rows are not filled to the last column (an atom that does not fit starts the next row), so
  // the columns aimed at shrink until the laid-out rows fit.
  for (let capacity = first + (rows - 1) * width; capacity >= floor; ) {
    let lo = 0;
    let hi = widest;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (pieces.reduce((n, p) => n + eff(p, mid), 0) <= capacity) lo = mid;
      else hi = mid - 1;
    }
    const shown = layout(pieces.map((p) => squeeze(p, eff(p, lo))), first, width, rows);
    if (shown.length <= rows) return shown;
    capacity -= Math.max(4, Math.floor(((shown.length - rows) * width) / 2));
  }
  return null;
}

/** The last resort: the first and last parts at their minimum, the ones between counted (as
 *  many kept as fit, found by halving: a command may have thousands of parts). */
function fitEnds(pieces: Piece[], rows: number, first: number, width: number): string[] {
  const total = pieces.reduce((n, p) => n + p.chars, 0);
  const attempt = (kept: number): string[] => {
    const front = pieces.slice(0, Math.ceil(kept / 2));
    const back = pieces.slice(pieces.length - Math.floor(kept / 2));
    const hidden = pieces.length - front.length - back.length;
    const chars = [...front, ...back].reduce((n, p) => n - p.chars, total);
    const note = mark(`… ${count(hidden)} more part${hidden === 1 ? "" : "s"} (${count(chars)} characters) not shown: too many for this screen …`, 0);
    return layout([...front.map((p) => squeeze(p, minWidth(p))), [note], ...back.map((p) => squeeze(p, minWidth(p)))], first, width, rows);
  };
  let lo = 0;
  let hi = Math.min(pieces.length - 1, first + (rows - 1) * width); // a part takes a column at least
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (attempt(mid).length <= rows) lo = mid;
    else hi = mid - 1;
  }
  return attempt(lo);
}

/** The layout width for a terminal `columns` wide: the last column is left free (some terminals
 *  wrap on it), and never narrower than markers need. */
export function widthOf(columns: number): number {
  return Number.isFinite(columns) ? Math.max(MIN_WIDTH, columns - 1) : Infinity;
}

/**
 * `text` (a command, a question's detail; `\n` separates lines) as rows for at most `rows` rows
 * of a terminal `columns` wide: each source line's first row starts with INDENT, a continuation
 * row at the left edge, and no row reaches the last column. Unchanged but for blank runs and
 * escapes when it fits; else long parts cut in the middle, then lines flowed, then (only when
 * every part's ends cannot fit) the middle parts counted instead of shown.
 */
export function fitBlock(text: string, rows: number, columns: number): string[] {
  const width = widthOf(columns);
  const first = width - INDENT.length;
  const lines = text.replace(/\r\n/g, "\n").split("\n").map((l) => piecesOf(atomsOf(l)));
  const budget = Math.max(1, rows);
  const laid = lines.map((l) => layout(l.map((p) => p.atoms), first, width, budget));
  const indent = (ls: string[][]): string[] => ls.flatMap((r) => r.map((x, i) => (i === 0 ? INDENT + x : x)));
  if (laid.reduce((n, r) => n + r.length, 0) <= budget) return indent(laid);
  if (lines.length <= budget) {
    const share = rowShares(laid.map((r) => r.length), budget);
    const fitted = lines.map((l, i) => (laid[i].length <= share[i] ? laid[i] : fitPieces(l, share[i], first, width)));
    if (fitted.every((f) => f !== null)) return indent(fitted as string[][]);
  }
  const flowed = lines.map((l, i) => (i < lines.length - 1 ? [...l, pieceOf([NEWLINE()])] : l)).flat();
  const pieces = flowed.filter((p) => p.atoms.length > 0);
  return indent([fitPieces(pieces, budget, first, width) ?? fitEnds(pieces, budget, first, width)]);
}

/** Rows for each line: every line one at least, the rest shared so the longest give up most. */
function rowShares(need: number[], budget: number): number[] {
  let lo = 1;
  let hi = need.reduce((n, x) => Math.max(n, x), 1);
  const used = (t: number): number => need.reduce((n, x) => n + Math.min(x, t), 0);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (used(mid) <= budget) lo = mid;
    else hi = mid - 1;
  }
  let spare = budget - used(lo);
  return need.map((x) => {
    const r = Math.min(x, lo);
    if (x > lo && spare > 0) {
      spare--;
      return r + 1;
    }
    return r;
  });
}

/** Rows `plain` (no escape sequences, no `\n`) takes on a terminal `columns` wide. */
export function rowsOf(plain: string, columns: number): number {
  const width = widthOf(columns);
  if (!Number.isFinite(width)) return 1;
  let rows = 1;
  let col = 0;
  for (const ch of plain) {
    const w = cellWidth(ch);
    if (col + w > width) {
      rows++;
      col = 0;
    }
    col += w;
  }
  return rows;
}

/**
 * `text` as one line of the question (a reason, a rule, a title: blank runs counted, `\n` shown
 * as `⟦↵⟧`, inert), cut in the middle until `fits(shown)` holds; at its narrowest when nothing
 * does (its start and end still show).
 */
export function fitInline(text: string, fits: (shown: string) => boolean): string {
  const atoms: Atom[] = [];
  for (const [i, l] of text.replace(/\r\n/g, "\n").split("\n").entries()) {
    if (i > 0) atoms.push(NEWLINE());
    for (const a of atomsOf(l)) atoms.push(a);
  }
  const p = pieceOf(atoms);
  const join = (as: Atom[]): string => as.map((a) => a.shown).join("");
  const whole = join(atoms);
  if (fits(whole)) return whole;
  // The widest cut form that fits: doubling from the narrowest, then halving the gap (the text
  // may be megabytes; what fits is a few rows).
  let lo = minWidth(p);
  while (lo * 2 < p.width && fits(join(squeeze(p, lo * 2)))) lo *= 2;
  let hi = Math.min(p.width - 1, lo * 2);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(join(squeeze(p, mid)))) lo = mid;
    else hi = mid - 1;
  }
  return join(squeeze(p, lo));
}

/** The rows a question's header and its answer line may take at most on a screen `rows` high. */
export function lineRows(rows: number): number {
  return Number.isFinite(rows) ? Math.max(1, Math.min(3, Math.floor((rows - 4) / 5))) : Infinity;
}

/** The size of the terminal `out` writes to now; Infinity for a stream that is not one. */
export function roomOf(out: NodeJS.WritableStream): Room {
  const tty = out as Partial<NodeJS.WriteStream>;
  return { rows: tty.rows || Infinity, columns: tty.columns || Infinity };
}

/** The markers fitting adds (to style them apart from the text: they are deepcode's words). */
export const MARKER = /\u27e6[^\u27e7]*\u27e7/g;
