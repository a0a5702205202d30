// The literal text every match of a ripgrep pattern must contain, if one is certain. Grep's
// built-in search looks for it in a file's bytes first, and decodes and scans only the files
// that have it — most files of a large tree are ruled out by one byte search.

/**
 * A literal every match must contain (at least 3 characters), or null when none is certain:
 * a cheap byte search rules out most files before they are decoded. Conservative: any
 * alternation, inline flag or code-point escape gives up.
 */
export function requiredLiteral(pattern: string): string | null {
  if (pattern.startsWith("(?")) return null;
  let best = "";
  let run = "";
  const flush = (): void => {
    if (run.length > best.length) best = run;
    run = "";
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      const n = pattern[i + 1] ?? "";
      if (/[xuUpP]/.test(n)) return null;
      i++;
      if (/[^A-Za-z0-9<>]/.test(n) && n !== "") run += n;
      else flush();
    } else if (c === "|") {
      return null;
    } else if (c === "(" || c === "[") {
      flush();
      i = skipGroup(pattern, i);
      if (i < 0) return null;
    } else if (c === "*" || c === "?") {
      run = run.slice(0, -1); // the character before is optional
      flush();
    } else if (c === "{") {
      const m = /^\{(\d+)(?:,\d*)?\}/.exec(pattern.slice(i));
      if (!m) return null;
      if (m[1] === "0") run = run.slice(0, -1);
      flush();
      i += m[0].length - 1;
    } else if (/[.^$+}\]\n]/.test(c)) {
      flush();
    } else {
      run += c;
    }
  }
  flush();
  return best.length >= 3 ? best : null;
}

/** Index of the `)` or `]` closing the group or class that opens at `open`, or -1. */
function skipGroup(p: string, open: number): number {
  let depth = 0;
  let inClass = false;
  for (let i = open; i < p.length; i++) {
    const c = p[i];
    if (c === "\\") i++;
    else if (inClass) {
      if (c === "]") {
        inClass = false;
        if (depth === 0) return i;
      }
    } else if (c === "[") {
      inClass = true;
      if (p[i + 1] === "^") i++;
      if (p[i + 1] === "]") i++;
    } else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return i;
  }
  return -1;
}
