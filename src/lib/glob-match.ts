// Glob patterns compiled to regular expressions, shared by Glob, Grep's `glob` filter and
// permission rules. Semantics (gitignore-style, as Claude Code's rules use them):
//   `*` any run of characters within one path segment, `**` any number of whole segments
//   (also none), `?` one character except `/`, `[abc]`/`[!a-z]` a class, `{a,b}` alternatives,
//   `\x` a literal x. Paths use `/`. Dotfiles match like any other name (pass `dot: false` to
//   make `*` skip names that start with `.`).

export interface GlobOptions {
  dot?: boolean;
  /** Case-insensitive (Windows/macOS file systems). */
  nocase?: boolean;
}

const cache = new Map<string, RegExp>();

export function globToRegExp(pattern: string, opts: GlobOptions = {}): RegExp {
  const key = `${opts.dot === false ? 0 : 1}${opts.nocase ? 1 : 0}${pattern}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const re = new RegExp(`^${translate(pattern, opts.dot !== false)}$`, opts.nocase ? "i" : "");
  if (cache.size > 500) cache.clear();
  cache.set(key, re);
  return re;
}

export function globMatch(pattern: string, path: string, opts: GlobOptions = {}): boolean {
  return globToRegExp(pattern, opts).test(path);
}

/** True when the pattern has any glob syntax (otherwise it is a literal path). */
export function hasGlob(pattern: string): boolean {
  return /[*?[{]/.test(pattern);
}

function translate(p: string, dot: boolean): string {
  let out = "";
  const seg = dot ? "[^/]" : "(?!\\.)[^/]"; // first char of a segment
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === "\\" && i + 1 < p.length) {
      out += escape(p[++i]);
    } else if (c === "*") {
      if (p[i + 1] === "*") {
        const atStart = i === 0 || p[i - 1] === "/";
        let j = i + 2;
        while (p[j] === "*") j++;
        const atEnd = j === p.length || p[j] === "/";
        if (atStart && atEnd) {
          // `**/` matches zero or more segments; a trailing `**` matches everything below.
          if (j === p.length) out += dot ? ".*" : "(?:(?!\\.)[^/]*(?:/(?!\\.)[^/]*)*)?";
          else out += dot ? "(?:[^/]*/)*" : "(?:(?!\\.)[^/]*/)*";
          i = j === p.length ? j - 1 : j; // skip the slash after `**`
          continue;
        }
        i = j - 1; // `a**b` is just `*`
      }
      out += dot ? "[^/]*" : `(?:${seg}[^/]*)?`;
    } else if (c === "?") {
      out += "[^/]";
    } else if (c === "[") {
      const end = p.indexOf("]", i + 2);
      if (end < 0) {
        out += "\\[";
        continue;
      }
      let body = p.slice(i + 1, end);
      if (body[0] === "!") body = `^${body.slice(1)}`;
      out += `[${body.replace(/\\/g, "\\\\")}]`;
      i = end;
    } else if (c === "{") {
      const end = matchingBrace(p, i);
      if (end < 0) {
        out += "\\{";
        continue;
      }
      const alts = splitTopLevel(p.slice(i + 1, end)).map((a) => translate(a, dot));
      out += `(?:${alts.join("|")})`;
      i = end;
    } else {
      out += escape(c);
    }
  }
  return out;
}

function matchingBrace(p: string, open: number): number {
  let depth = 0;
  for (let i = open; i < p.length; i++) {
    if (p[i] === "\\") i++;
    else if (p[i] === "{") depth++;
    else if (p[i] === "}" && --depth === 0) return i;
  }
  return -1;
}

function splitTopLevel(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === "\\") i++;
    else if (s[i] === "{") depth++;
    else if (s[i] === "}") depth--;
    else if (s[i] === "," && depth === 0) {
      parts.push(s.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(s.slice(start));
  return parts;
}

function escape(c: string): string {
  return /[.*?+^$()|[\]{}\\/]/.test(c) ? `\\${c}` : c;
}
