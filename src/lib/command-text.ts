// What a custom command's text says, read without running anything (src/cli/commands/expand.ts
// expands it; workspace trust and a plugin's install list what it would run): the commands its
// template runs (!`cmd` spans and ```! blocks) and its arguments split as a shell would.

/** `!` + a backtick span, at the start of a line or after whitespace. */
const BANG = /(^|\s)!`([^`]+)`/g;
/** A fenced block whose info string is `!`: its lines run as one command. */
const FENCE = /(^|\n)```![ \t]*\r?\n([\s\S]*?)\r?\n```[ \t]*(?=\r?\n|$)/g;
/** Where a template runs a command: [start, end) of what the output replaces, and the command. */
export interface Run {
  start: number;
  end: number;
  command: string;
}

/** Every command a template runs, in order: fenced ```! blocks and !`cmd` spans (one inside a
 *  fenced block is part of that block's script, not a command of its own). */
export function runsOf(body: string): Run[] {
  const fences = [...body.matchAll(FENCE)].map((m) => ({ start: m.index + m[1].length, end: m.index + m[0].length, command: m[2] }));
  const inFence = (i: number): boolean => fences.some((f) => i >= f.start && i < f.end);
  const spans = [...body.matchAll(BANG)].filter((m) => !inFence(m.index + m[1].length)).map((m) => ({ start: m.index + m[1].length, end: m.index + m[0].length, command: m[2] }));
  return [...fences, ...spans].sort((a, b) => a.start - b.start);
}

/** The commands a template runs, as written (workspace trust and install list them before
 *  they can run): !`cmd` spans and ```! blocks. */
export function bangCommands(body: string): string[] {
  return runsOf(body).map((r) => r.command.trim());
}

/** Split like a shell: whitespace separates; '…' is literal; "…" allows \" and \\; a backslash
 *  outside quotes escapes the next character. An unclosed quote runs to the end. */
export function splitArgs(s: string): string[] {
  const out: string[] = [];
  let cur = "";
  let has = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (/\s/.test(c)) {
      if (has) out.push(cur);
      cur = "";
      has = false;
    } else if (c === "'") {
      const end = s.indexOf("'", i + 1);
      cur += s.slice(i + 1, end < 0 ? undefined : end);
      has = true;
      i = end < 0 ? s.length : end;
    } else if (c === '"') {
      has = true;
      for (i++; i < s.length && s[i] !== '"'; i++) {
        if (s[i] === "\\" && (s[i + 1] === '"' || s[i + 1] === "\\")) i++;
        cur += s[i];
      }
    } else if (c === "\\" && i + 1 < s.length) {
      cur += s[++i];
      has = true;
    } else {
      cur += c;
      has = true;
    }
  }
  if (has) out.push(cur);
  return out;
}
