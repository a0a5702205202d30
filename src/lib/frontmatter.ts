// The YAML subset that Claude Code's Markdown files use in their `---` header — custom
// commands, skills (SKILL.md), agent files — shared here so the CLI and mods parse them alike:
// `key: value` lines whose value is a plain scalar, a "double" or 'single' quoted string, a flow
// list `[a, "b, c"]`, a block list (`- a` lines under an empty value), or a `|` / `>` block
// scalar. Anything else is reported with its line and skipped; parsing never throws, so one bad
// line costs only its own key (the command keeps its defaults for it).
//
// Leniency, as Claude Code reads its files: a plain value may continue on following lines that
// are NOT indented (agent files whose `description:` runs on into `<example>` blocks). Such a
// continuation starts at the first unindented line that is not `key:` (nor `- item`) and runs
// until a line that starts a key the file format knows (`keys`; without them, any `key:` line),
// so `Context: …` or `user: "…"` inside an example stays text. What was read this way is listed
// in `lenient` (a note for the person, never a refusal).

export interface FrontmatterValue {
  /** A string, or a list for `[a, b]` and `- a` forms. */
  value: string | string[];
  /** The value exactly as written after `key:` (for keys that are text even when they look like
   *  a list, e.g. `argument-hint: [message]`). */
  raw: string;
  line: number;
}

export interface Frontmatter {
  /** Keys in file order; a repeated key keeps the later value. */
  fields: Map<string, FrontmatterValue>;
  /** The text after the header (the whole file when there is none). */
  body: string;
  /** Line of the file where the body starts (1-based). */
  bodyLine: number;
  /** Problems, each with the 1-based line of the file it is on, and the key whose value it
   *  is about (absent for a line that is not `key: value` at all, or an unclosed header). */
  problems: Array<{ line: number; message: string; key?: string }>;
  /** The header opened with `---` and never closed: nothing in the file can be trusted to be
   *  the prompt (the header would be sent as text). */
  unclosed?: boolean;
  /** Keys whose plain value continued on unindented lines (read leniently), with the lines. */
  lenient: Array<{ key: string; line: number; lines: number }>;
}

export interface FrontmatterOptions {
  /** The keys the file format knows: inside a lenient continuation only these end it. */
  keys?: readonly string[];
}

const KEY = /^([A-Za-z_][\w-]*)\s*:(?:\s+(.*)|\s*)$/;

export function parseFrontmatter(text: string, o: FrontmatterOptions = {}): Frontmatter {
  const src = text.replace(/^\ufeff/, "");
  const lines = src.split(/\r?\n/);
  const fields = new Map<string, FrontmatterValue>();
  const problems: Frontmatter["problems"] = [];
  const lenient: Frontmatter["lenient"] = [];
  if (lines[0]?.trimEnd() !== "---") return { fields, body: src, bodyLine: 1, problems, lenient };
  const close = lines.findIndex((l, i) => i > 0 && (l.trimEnd() === "---" || l.trimEnd() === "..."));
  if (close < 0) {
    problems.push({ line: 1, message: "the frontmatter opened with --- is never closed" });
    return { fields, body: src, bodyLine: 1, problems, unclosed: true, lenient };
  }
  const known = o.keys ? new Set(o.keys) : undefined;
  const endsContinuation = (l: string): boolean => {
    const m = KEY.exec(l);
    return m !== null && (known === undefined || known.has(m[1]));
  };
  const header = lines.slice(1, close);
  for (let i = 0; i < header.length; i++) {
    const line = header[i];
    const no = i + 2; // file line: the opening --- is line 1
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    const m = KEY.exec(line);
    if (!m) {
      problems.push({ line: no, message: `expected 'key: value', found ${JSON.stringify(line.trim().slice(0, 40))}` });
      continue;
    }
    const key = m[1];
    const rest = (m[2] ?? "").trim();
    // Lines below that belong to this key: indented ones, and `- item` lines of a block list.
    let j = i + 1;
    while (j < header.length && (/^\s+\S/.test(header[j]) || (rest === "" && /^-(\s|$)/.test(header[j])) || header[j].trim() === "")) j++;
    while (j > i + 1 && header[j - 1].trim() === "") j--;
    const more = header.slice(i + 1, j);
    // The lenient continuation: a plain value, then an unindented line that starts no key.
    let next = j;
    while (next < header.length && header[next].trim() === "") next++;
    let k = next;
    while (k < header.length && !endsContinuation(header[k])) k++;
    if (plain(rest) && next < header.length && (!KEY.test(header[next]) || strayLine(header.slice(next, k))) && !/^-(\s|$)/.test(header[next]) && !header[next].trimStart().startsWith("#")) {
      while (k > next && header[k - 1].trim() === "") k--;
      lenient.push({ key, line: no, lines: k - (i + 1) });
      const first = scalar(rest);
      const text = foldLines([typeof first === "string" ? first : rest, ...header.slice(i + 1, k)]);
      i = k - 1;
      if (fields.has(key)) problems.push({ line: no, message: `'${key}' appears twice (the later one is used)`, key });
      fields.set(key, { value: text, raw: text, line: no });
      continue;
    }
    i = j - 1;
    const parsed = parseValue(rest, more);
    if ("error" in parsed) {
      problems.push({ line: no, message: `${key}: ${parsed.error}`, key });
      continue;
    }
    if (fields.has(key)) problems.push({ line: no, message: `'${key}' appears twice (the later one is used)`, key });
    fields.set(key, { value: parsed.value, raw: [rest, ...more.map((l) => l.trim())].filter(Boolean).join(" "), line: no });
  }
  return { fields, body: lines.slice(close + 1).join("\n"), bodyLine: close + 2, problems, lenient };
}

/** Whether unindented lines that start no key the format knows hold one that is no `key: value`
 *  at all (`<example>`): then a line like `Context: …` before it is the value's text too, as in
 *  pr-review-toolkit's agents, whose description runs on over example dialogues (`user: "…"`).
 *  Only lines that would otherwise be refused qualify: an unknown key alone stays a key. */
function strayLine(lines: readonly string[]): boolean {
  return lines.some((l) => l.trim() !== "" && !/^\s/.test(l) && !KEY.test(l) && !/^-(\s|$)/.test(l) && !l.trimStart().startsWith("#"));
}

/** A value that may continue leniently: a plain scalar (not quoted, a list or a block scalar). */
function plain(rest: string): boolean {
  return rest !== "" && !/^["'[{|>&*!]/.test(rest);
}

/** YAML's folding of a plain scalar's lines: one space between lines, a blank line a newline. */
function foldLines(ls: readonly string[]): string {
  const paras: string[][] = [[]];
  for (const l of ls) {
    if (l.trim() === "") {
      if (paras[paras.length - 1].length) paras.push([]);
    } else paras[paras.length - 1].push(l.trim());
  }
  return paras.filter((p) => p.length).map((p) => p.join(" ")).join("\n");
}

function parseValue(rest: string, more: string[]): { value: string | string[] } | { error: string } {
  if (rest === "") {
    if (more.length === 0) return { value: "" };
    // A nested mapping (Claude Code's `hooks:` with events under it): kept as its text, for the
    // reader to name; deepcode's fields are flat.
    const first = more.find((l) => l.trim() !== "");
    if (first && /^\s+[A-Za-z_][\w-]*\s*:(\s|$)/.test(first)) return { value: more.map((l) => l.trimEnd()).join("\n") };
    const items: string[] = [];
    for (const l of more) {
      if (l.trim() === "") continue;
      const m = /^\s*-(?:\s+(.*))?$/.exec(l);
      if (!m) return { error: `expected a '- item' line, found ${JSON.stringify(l.trim().slice(0, 40))}` };
      const item = scalar((m[1] ?? "").trim());
      if (typeof item !== "string") return item;
      items.push(item);
    }
    return { value: items };
  }
  if (rest === "|" || rest === ">" || /^[|>][+-]$/.test(rest)) {
    const indent = Math.min(...more.filter((l) => l.trim()).map((l) => /^\s*/.exec(l)![0].length));
    const body = more.map((l) => l.slice(indent).trimEnd());
    return { value: rest.startsWith("|") ? body.join("\n") : body.join(" ").replace(/\s+/g, " ").trim() };
  }
  if (rest.startsWith("[")) {
    const flow = [rest, ...more.map((l) => l.trim())].join(" ");
    // `[pr-number] [priority]`: Claude Code's way to write an argument hint, which YAML cannot
    // read as a list; it is the text as written, as Claude Code shows it.
    if (/^\[[^\]]*\](?:\s+\[[^\]]*\])+$/.test(flow)) return { value: flow };
    return flowList(flow);
  }
  const v = scalar(rest);
  if (typeof v !== "string") return v;
  // A plain scalar may continue on indented lines; YAML folds them with spaces.
  if (more.length && !/^["']/.test(rest)) return { value: [v, ...more.map((l) => l.trim()).filter(Boolean)].join(" ") };
  if (more.length) return { error: "unexpected indented lines after a quoted value" };
  return { value: v };
}

/** One scalar: quoted (with escapes) or plain (a ` #` starts a comment). */
function scalar(s: string): string | { error: string } {
  if (s.startsWith('"')) {
    const end = closingDouble(s);
    if (end < 0) return { error: "a double-quoted string is not closed" };
    if (s.slice(end + 1).trim() && !s.slice(end + 1).trim().startsWith("#")) return { error: "text after a closing quote" };
    return unescapeDouble(s.slice(1, end));
  }
  if (s.startsWith("'")) {
    const m = /^'((?:[^']|'')*)'\s*(#.*)?$/.exec(s);
    if (!m) return { error: "a single-quoted string is not closed" };
    return m[1].replace(/''/g, "'");
  }
  return s.replace(/\s+#.*$/, "").trim();
}

function closingDouble(s: string): number {
  for (let i = 1; i < s.length; i++) {
    if (s[i] === "\\") i++;
    else if (s[i] === '"') return i;
  }
  return -1;
}

const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", '"': '"', "\\": "\\", "/": "/", "0": "\0" };

function unescapeDouble(s: string): string {
  return s.replace(/\\(.)/g, (_, c: string) => ESCAPES[c] ?? c);
}

/** `[a, "b, c", 'd']` → ["a", "b, c", "d"]. */
function flowList(s: string): { value: string[] } | { error: string } {
  const items: string[] = [];
  let i = 1;
  let current = "";
  let quoted = false;
  const push = () => {
    const t = current.trim();
    if (t || quoted) items.push(t);
    current = "";
    quoted = false;
  };
  while (i < s.length) {
    const c = s[i];
    if (c === '"' || c === "'") {
      const rest = s.slice(i);
      const end = c === '"' ? closingDouble(rest) : /^'(?:[^']|'')*'/.exec(rest)?.[0].length ?? -1;
      if (end < 0) return { error: "a quoted list item is not closed" };
      const inner = c === '"' ? unescapeDouble(rest.slice(1, end)) : rest.slice(1, end - 1).replace(/''/g, "'");
      current += inner;
      quoted = true;
      i += c === '"' ? end + 1 : end;
      continue;
    }
    if (c === ",") push();
    else if (c === "]") {
      push();
      const after = s.slice(i + 1).trim();
      if (after && !after.startsWith("#")) return { error: "text after the closing ]" };
      return { value: items };
    } else current += c;
    i++;
  }
  return { error: "a [list] is not closed with ]" };
}

/** A list-valued field: a YAML list as is, or a string split at the commas outside parentheses
 *  (`Bash(git add:*), Read` → ["Bash(git add:*)", "Read"]), each item trimmed, empty ones out. */
export function listField(v: FrontmatterValue): string[] {
  return (Array.isArray(v.value) ? v.value : splitTopLevel(v.value)).map((s) => s.trim()).filter(Boolean);
}

function splitTopLevel(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === "(") depth++;
    else if (s[i] === ")") depth = Math.max(0, depth - 1);
    else if (s[i] === "," && depth === 0) {
      out.push(s.slice(start, i));
      start = i + 1;
    }
  }
  out.push(s.slice(start));
  return out;
}
