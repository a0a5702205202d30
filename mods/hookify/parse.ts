// The `---` header of a hookify rule file, in the YAML subset hookify's own rules use:
//   key: value                 a plain scalar (kept as written: `pattern: rm\s+-rf` keeps its
//                              backslashes), "double quoted" (YAML escapes: "\\s" is \s) or
//                              'single quoted' ('' is a quote)
//   conditions:                a list of maps, one `- key: value` line starting each item and
//     - field: command         indented `key: value` lines continuing it (hookify's inline
//       operator: regex_match  `- field: x, operator: y, pattern: z` form is read too)
//       pattern: rm\s+-rf
// Every value keeps the file line it stands on, so a problem can name it. Parsing never throws.

export interface Scalar {
  value: string;
  line: number;
}

export type Item = Map<string, Scalar>;

export interface Header {
  scalars: Map<string, Scalar>;
  lists: Map<string, { line: number; items: Item[] }>;
  body: string;
  problems: Array<{ line: number; message: string }>;
  /** There is no `---` header at all, or it is never closed. */
  missing?: string;
}

const KEY = /^([A-Za-z_][\w-]*)\s*:(?:\s+(.*)|\s*)$/;
const ITEM_KEYS = new Set(["field", "operator", "pattern"]);

export function parseHeader(text: string): Header {
  const lines = text.replace(/^\ufeff/, "").split(/\r?\n/);
  const out: Header = { scalars: new Map(), lists: new Map(), body: "", problems: [] };
  if (lines[0]?.trimEnd() !== "---") return { ...out, body: text, missing: "the file does not start with a --- header" };
  const close = lines.findIndex((l, i) => i > 0 && l.trimEnd() === "---");
  if (close < 0) return { ...out, body: text, missing: "the --- header is never closed" };
  out.body = lines.slice(close + 1).join("\n").trim();
  let list: { line: number; items: Item[] } | undefined;
  let item: Item | undefined;
  for (let i = 1; i < close; i++) {
    const raw = lines[i];
    const no = i + 1;
    const trimmed = raw.trim();
    if (trimmed === "" || trimmed.startsWith("#")) continue;
    const indented = /^\s/.test(raw);
    if (!indented && !trimmed.startsWith("-")) {
      list = undefined;
      item = undefined;
      const m = KEY.exec(raw);
      if (!m) {
        out.problems.push({ line: no, message: `expected 'key: value', found ${JSON.stringify(trimmed.slice(0, 40))}` });
        continue;
      }
      const rest = (m[2] ?? "").trim();
      if (rest === "") {
        list = { line: no, items: [] };
        out.lists.set(m[1], list);
        continue;
      }
      const v = scalar(rest);
      if (typeof v !== "string") out.problems.push({ line: no, message: `${m[1]}: ${v.error}` });
      else out.scalars.set(m[1], { value: v, line: no });
      continue;
    }
    if (!list) {
      out.problems.push({ line: no, message: `an indented or '- ' line belongs to no key: ${JSON.stringify(trimmed.slice(0, 40))}` });
      continue;
    }
    let entry = trimmed;
    if (trimmed.startsWith("-")) {
      item = new Map();
      list.items.push(item);
      entry = trimmed.slice(1).trim();
      if (entry === "") continue;
      const inline = inlineItem(entry, no);
      if (inline) {
        for (const [k, v] of inline) item.set(k, v);
        continue;
      }
    }
    if (!item) {
      out.problems.push({ line: no, message: `expected '- key: value' to start a list item, found ${JSON.stringify(trimmed.slice(0, 40))}` });
      continue;
    }
    const m = KEY.exec(entry);
    if (!m || m[2] === undefined) {
      out.problems.push({ line: no, message: `expected 'key: value' in a list item, found ${JSON.stringify(entry.slice(0, 40))}` });
      continue;
    }
    const v = scalar(m[2].trim());
    if (typeof v !== "string") out.problems.push({ line: no, message: `${m[1]}: ${v.error}` });
    else item.set(m[1], { value: v, line: no });
  }
  return out;
}

/** hookify's `- field: command, operator: regex_match, pattern: x` (every part a known key). */
function inlineItem(entry: string, line: number): Item | undefined {
  if (!entry.includes(",")) return undefined;
  const parts = entry.split(",").map((p) => KEY.exec(p.trim()));
  if (parts.some((m) => !m || !ITEM_KEYS.has(m[1]) || m[2] === undefined)) return undefined;
  const item: Item = new Map();
  for (const m of parts) {
    const v = scalar(m![2]!.trim());
    if (typeof v !== "string") return undefined;
    item.set(m![1], { value: v, line });
  }
  return item;
}

function scalar(s: string): string | { error: string } {
  if (s.startsWith('"')) {
    let out = "";
    for (let i = 1; i < s.length; i++) {
      const c = s[i];
      if (c === "\\" && i + 1 < s.length) {
        const n = s[++i];
        out += n === "n" ? "\n" : n === "t" ? "\t" : n === "r" ? "\r" : n === "0" ? "\0" : n;
      } else if (c === '"') {
        const after = s.slice(i + 1).trim();
        if (after && !after.startsWith("#")) return { error: "text after a closing quote" };
        return out;
      } else out += c;
    }
    return { error: "a double-quoted value is not closed" };
  }
  if (s.startsWith("'")) {
    const m = /^'((?:[^']|'')*)'\s*(#.*)?$/.exec(s);
    if (!m) return { error: "a single-quoted value is not closed" };
    return m[1].replace(/''/g, "'");
  }
  // A plain scalar: ` #` starts a comment (a `#` inside a pattern without a space before it stays).
  return s.replace(/\s+#.*$/, "").trim();
}
