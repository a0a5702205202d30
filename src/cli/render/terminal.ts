// The one gate between deepcode and a terminal. `guardTerminal(stream)` replaces the stream's
// `write` (when it is a TTY) with one that lets through only plain text, `\n`, `\t` and the few
// colour codes deepcode's own style uses (bold, dim, italic, underline, red, green, yellow,
// blue, magenta, cyan, gray: none of them hides text); every other control character, escape
// sequence (cursor moves, erase, OSC titles, hyperlinks, conceal, backgrounds), C1 code and
// bidi override is shown as its escape (inert.ts). So no text from the model, a tool, an MCP
// server, a hook, a plugin or a file can move the cursor, redraw a question or retitle the
// window, whichever path prints it — nothing has to remember to call inert() for that.
//
// deepcode's own cursor work (redraw a transient line, erase a typed character, bracketed paste
// on/off) goes through `control(stream, CONTROL.x)`, which alone reaches the unguarded write,
// and only with the fixed sequences below. readline draws the prompt through `rawView(stream)`.

type Write = (chunk: unknown, ...rest: unknown[]) => boolean;
const RAW = new WeakMap<object, Write>();

/** The sequences deepcode itself sends to move the cursor or switch a terminal mode. */
export const CONTROL = {
  /** Back to the line's start and erase it (a transient line is redrawn in place). */
  clearLine: "\r\x1b[2K",
  /** Erase the character before the cursor (backspace in a typed answer). */
  backspace: "\b \b",
  pasteOn: "\x1b[?2004h",
  pasteOff: "\x1b[?2004l",
} as const;
export type Control = (typeof CONTROL)[keyof typeof CONTROL];

// SGR parameters deepcode's Style produces (util.styleText): set and reset pairs.
const SGR_ALLOWED = new Set(["0", "1", "2", "3", "4", "22", "23", "24", "31", "32", "33", "34", "35", "36", "39", "90"]);
// Either one SGR sequence, or one character that must not reach a terminal as is. `\n` and
// `\t` stay; `\r` does not (it returns to the line's start, over what was already shown).
const TOKEN = /\x1b\[([0-9;]*)m|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;

function escapeOf(ch: string): string {
  const c = ch.charCodeAt(0);
  return c <= 0xff ? `\\x${c.toString(16).padStart(2, "0")}` : `\\u${c.toString(16).padStart(4, "0")}`;
}

/** `s` as it may reach a terminal: deepcode's colour codes kept, everything else that could
 *  act on the terminal shown as its escape. Idempotent. */
export function terminalSafe(s: string): string {
  return s.replace(TOKEN, (m: string, params: string | undefined) => {
    if (params !== undefined) return params !== "" && params.split(";").every((p) => SGR_ALLOWED.has(p)) ? m : `\\x1b${m.slice(1)}`;
    return escapeOf(m);
  });
}

/** Guard a stream that is a terminal (a non-TTY stream — a pipe, a file — is left as it is:
 *  what a script reads from `deepcode -p` is the model's text unchanged). Idempotent. */
export function guardTerminal(stream: NodeJS.WriteStream, force = false): void {
  if (RAW.has(stream) || (!stream.isTTY && !force)) return;
  const original = stream.write.bind(stream) as Write;
  RAW.set(stream, original);
  const guarded = (chunk: unknown, ...rest: unknown[]): boolean => {
    const text = typeof chunk === "string" ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString("utf8") : String(chunk);
    // A Buffer's encoding argument no longer applies to the string made of it.
    const args = typeof chunk === "string" ? rest : rest.filter((r) => typeof r === "function");
    return original(terminalSafe(text), ...args);
  };
  stream.write = guarded as typeof stream.write;
}

/** Whether `stream` goes through the guard. */
export function isGuarded(stream: object): boolean {
  return RAW.has(stream);
}

/** Send one of deepcode's own control sequences (unguarded streams: written as they are). */
export function control(stream: NodeJS.WritableStream, seq: Control): void {
  const raw = RAW.get(stream);
  if (raw) raw(seq);
  else stream.write(seq);
}

/** The stream as readline must see it: its own cursor work unguarded (it echoes what the person
 *  types and redraws the prompt deepcode gave it; neither is someone else's text). */
export function rawView<T extends NodeJS.WritableStream>(stream: T): T {
  const raw = RAW.get(stream);
  if (!raw) return stream;
  return new Proxy(stream, {
    get(target, key, receiver) {
      if (key === "write") return raw;
      const v: unknown = Reflect.get(target, key, receiver);
      return v;
    },
  });
}
