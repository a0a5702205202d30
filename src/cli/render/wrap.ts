// Word wrapping for streamed text. Characters arrive one at a time with a style kind; a line
// breaks at whitespace once the next word would pass the width, so the wrapper holds only the
// current partial word (and the spaces before it) and prints it whole when whitespace or the
// line's end shows where it stops — nothing printed is ever redrawn. A word wider than a whole
// line is broken where the line is full. An East Asian wide character takes two columns and a
// line may break before or after it (such text has no spaces). Continuation lines start with the
// line's hanging prefix (a list item's or a quote's), so its text stays aligned.

type Span<K> = [K, string];

const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{20000}-\u{2fffd}\u{30000}-\u{3fffd}]|\p{Emoji_Presentation}/u;
// Combining marks, zero-width spaces and joiners, variation selectors: no column of their own.
const ZERO = /^(?:\p{Mn}|\p{Me}|[\u200b-\u200d]|\u2060|\ufeff|[\ufe00-\ufe0f])$/u;

/** Columns one character (code point) takes on a terminal: 0, 1, or 2 (East Asian wide). */
export function cellWidth(ch: string): number {
  if (ZERO.test(ch)) return 0;
  return WIDE.test(ch) ? 2 : 1;
}

/** Columns a string without escape sequences takes. */
export function textWidth(s: string): number {
  let n = 0;
  for (const ch of s) n += cellWidth(ch);
  return n;
}

export class Wrapper<K> {
  private col = 0;
  private hang: Array<Span<K>> = [];
  private hangWidth = 0;
  private wrap = true;
  private spaces: Array<Span<K>> = [];
  private word: Array<Span<K>> = [];
  private wordWidth = 0;
  /** The held word can never fit on one line: its characters are placed as they come. */
  private long = false;

  /** `width` columns (Infinity: never break); `sink` receives what is printed, in order (a line
   *  break the wrapper makes has no kind). */
  constructor(
    private readonly width: number,
    private readonly sink: (kind: K | undefined, text: string) => void,
  ) {}

  /** A new line begins. Its continuation lines start with `hang` (the prefix's columns, blank
   *  or styled); `wrap` false prints the line as written (a code block's). */
  startLine(hang: Array<Span<K>>, wrap: boolean): void {
    this.hang = hang;
    this.hangWidth = hang.reduce((n, [, t]) => n + textWidth(t), 0);
    this.wrap = wrap && Number.isFinite(this.width);
  }

  /** The line's own prefix (a bullet, a quote bar, indentation): printed as is, never broken. */
  prefix(kind: K, text: string): void {
    this.out([[kind, text]]);
  }

  /** The line's content. */
  put(kind: K, text: string): void {
    if (!this.wrap) {
      this.sink(kind, text);
      return;
    }
    for (const ch of text) this.char(kind, ch);
  }

  /** The line ends (a newline is printed after what was held). */
  endLine(): void {
    this.flush();
    this.sink(undefined, "\n");
    this.col = 0;
  }

  /** Print what is held (the stream ended, or the line does). */
  flush(): void {
    if (this.word.length) this.place();
    else if (this.spaces.length && this.col + this.spacesWidth() <= this.width) this.out(this.spaces);
    this.spaces = [];
    this.long = false;
  }

  private char(kind: K, ch: string): void {
    if (ch === " " || ch === "\t") {
      if (this.word.length) this.place();
      this.long = false;
      this.spaces.push([kind, ch]);
      return;
    }
    const w = cellWidth(ch);
    if (this.long) {
      if (this.col + w > this.width && this.col > this.hangWidth) this.newLine();
      this.out([[kind, ch]]);
      return;
    }
    if (w === 2) {
      // A break may fall before and after a wide character: it is a word of its own.
      if (this.word.length) this.place();
      this.word = [[kind, ch]];
      this.wordWidth = 2;
      this.place();
      return;
    }
    this.word.push([kind, ch]);
    this.wordWidth += w;
    if (this.hangWidth + this.wordWidth > this.width) {
      this.place();
      this.long = true;
    }
  }

  /** Print the held spaces and word: on this line if they fit, else the word alone on the next
   *  (broken where lines fill, when it is wider than a line). */
  private place(): void {
    const sw = this.spacesWidth();
    if (this.col + sw + this.wordWidth <= this.width) {
      this.out(this.spaces);
      this.out(this.word);
    } else {
      if (this.col > this.hangWidth) this.newLine();
      else this.out(this.spaces);
      for (const [k, ch] of this.word) {
        if (this.col + cellWidth(ch) > this.width && this.col > this.hangWidth) this.newLine();
        this.out([[k, ch]]);
      }
    }
    this.spaces = [];
    this.word = [];
    this.wordWidth = 0;
  }

  private spacesWidth(): number {
    let n = 0;
    for (const [, t] of this.spaces) n += t === "\t" ? 8 - ((this.col + n) % 8) : 1;
    return n;
  }

  private newLine(): void {
    this.sink(undefined, "\n");
    this.col = 0;
    this.out(this.hang);
  }

  private out(spans: Array<Span<K>>): void {
    for (const [k, t] of spans) {
      this.col += t === "\t" ? 8 - (this.col % 8) : textWidth(t);
      this.sink(k, t);
    }
  }
}
