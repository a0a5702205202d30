// Text someone else wrote (a plugin's hook command, a marketplace's description, a file name in
// a repository), made inert before it reaches the terminal: a control character could move the
// cursor, erase a line and redraw what a consent screen says (`\u001b[2K\r\u001b[1A…`), and a
// bidi override could make `evil.sh #\u202Ehs.dab` read as something else. Each such character
// is shown as its escape (`\x1b`, `\u202e`) instead: the person sees that it is there.
//
// Escaped: C0 (U+0000–U+001F, newline and tab included — a line from a plugin stays one line),
// DEL and C1 (U+007F–U+009F), the bidi embeddings, overrides and isolates (U+202A–U+202E,
// U+2066–U+2069) and the invisible direction marks (U+200E, U+200F, U+061C).

const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;
const UNSAFE_KEEP_LINES = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;

function escapeOf(ch: string): string {
  const c = ch.charCodeAt(0);
  return c <= 0xff ? `\\x${c.toString(16).padStart(2, "0")}` : `\\u${c.toString(16).padStart(4, "0")}`;
}

/** `s` with every control and bidi character shown as its escape (one line stays one line). */
export function inert(s: string): string {
  return s.replace(UNSAFE, escapeOf);
}

/** The same, keeping `\n`: for a block of lines deepcode composed around someone else's text
 *  (a last line of defence where the parts were not made inert one by one). */
export function inertLines(s: string): string {
  return s.replace(UNSAFE_KEEP_LINES, escapeOf);
}

const UNSAFE_KEEP_TEXT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;

/** The same, keeping `\n` and `\t` (a `\r\n` becomes `\n`): for running text someone else
 *  wrote — the model's reply and reasoning, a file's contents — whose layout is its own. */
export function inertText(s: string): string {
  return s.replace(/\r\n/g, "\n").replace(UNSAFE_KEEP_TEXT, escapeOf);
}
