// HTML as text a model reads well: Markdown-like headings (`## Title`), links (`[text](url)`,
// made absolute), list items (`- ` and `1. `), code (`` `x` `` and fenced blocks), table rows
// with ` | `, images by their alt text. Nothing of script, style, noscript, template, svg,
// canvas, iframe or object; of the head only the title. A small scanner of our own, not a
// parser: it reads what pages commonly hold and never fails (what it cannot read stays text).

const SKIP = new Set(["script", "style", "noscript", "template", "svg", "canvas", "iframe", "object", "head", "math"]);
const BLOCK = new Set([
  "p", "div", "section", "article", "main", "header", "footer", "nav", "aside", "blockquote", "form", "fieldset", "figure",
  "figcaption", "dl", "dt", "dd", "address", "details", "summary", "table", "thead", "tbody", "tfoot", "body", "html", "center",
]);

const ENTITIES: Record<string, string> = {
  amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " ", copy: "©", reg: "®", trade: "™", hellip: "…", mdash: "—",
  ndash: "–", lsquo: "‘", rsquo: "’", ldquo: "“", rdquo: "”", laquo: "«", raquo: "»", bull: "•", middot: "·", times: "×",
  divide: "÷", deg: "°", plusmn: "±", para: "¶", sect: "§", euro: "€", pound: "£", yen: "¥", cent: "¢", larr: "←", rarr: "→",
  uarr: "↑", darr: "↓", harr: "↔", shy: "", zwj: "", zwnj: "", thinsp: " ", ensp: " ", emsp: " ", minus: "−", le: "≤", ge: "≥", ne: "≠",
};

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+\d?);?/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : whole;
    }
    const v = ENTITIES[name.toLowerCase()];
    return v === undefined || (!whole.endsWith(";") && name.length > 4) ? whole : v;
  });
}

interface Frame {
  tag: string;
  out: string[];
  href?: string;
}

export interface PageText {
  title: string;
  text: string;
}

const TAG = /<!--[\s\S]*?(?:-->|$)|<![^>]*>|<\?[^>]*>|<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;

export function htmlToText(html: string, base: string): PageText {
  const stack: Frame[] = [{ tag: "", out: [] }];
  const lists: Array<{ ordered: boolean; n: number }> = [];
  let pre = 0;
  const title = decodeEntities(/<title[^>]*>([\s\S]*?)<\/title/i.exec(html)?.[1] ?? "").replace(/\s+/g, " ").trim();
  const top = (): Frame => stack[stack.length - 1];
  const emit = (s: string): void => void top().out.push(s);
  const breakLine = (blank: boolean): void => emit(blank ? "\n\n" : "\n");

  const text = (raw: string): void => {
    const t = decodeEntities(raw);
    if (pre > 0) emit(t);
    else emit(t.replace(/[ \t\r\n\f]+/g, " "));
  };

  let last = 0;
  for (let m = TAG.exec(html); m !== null; m = TAG.exec(html)) {
    if (m.index > last) text(html.slice(last, m.index));
    last = TAG.lastIndex;
    if (m[2] === undefined) continue; // a comment, doctype or processing instruction
    const closing = m[1] === "/";
    const tag = m[2].toLowerCase();
    const attrs = m[3] ?? "";
    if (SKIP.has(tag)) {
      if (!closing && !attrs.trimEnd().endsWith("/")) {
        const end = html.toLowerCase().indexOf(`</${tag}`, last);
        last = TAG.lastIndex = end < 0 ? html.length : end;
      }
      continue;
    }
    if (closing) close(tag);
    else open(tag, attrs);
  }
  if (last < html.length) text(html.slice(last));
  while (stack.length > 1) close(top().tag);
  return { title, text: tidy(stack[0].out.join("")) };

  function open(tag: string, attrs: string): void {
    if (/^h[1-6]$/.test(tag)) {
      breakLine(true);
      emit(`${"#".repeat(Number(tag[1]))} `);
    } else if (tag === "br") emit("\n");
    else if (tag === "hr") emit("\n\n---\n\n");
    else if (tag === "ul" || tag === "ol") {
      if (lists.length === 0) breakLine(false);
      lists.push({ ordered: tag === "ol", n: Number(attr(attrs, "start")) || 1 });
    } else if (tag === "li") {
      const l = lists[lists.length - 1];
      emit(`\n${"  ".repeat(Math.max(0, lists.length - 1))}${l?.ordered ? `${l.n++}. ` : "- "}`);
    } else if (tag === "pre") {
      if (pre++ === 0) emit("\n\n```\n");
    } else if (tag === "code") {
      if (pre === 0) emit("`");
    } else if (tag === "tr") emit("\n|");
    else if (tag === "td" || tag === "th") emit(" ");
    else if (tag === "img") {
      const alt = decodeEntities(attr(attrs, "alt") ?? "").trim();
      if (alt) emit(`[image: ${alt}]`);
    } else if (tag === "a") stack.push({ tag, out: [], href: attr(attrs, "href") });
    else if (BLOCK.has(tag)) breakLine(tag === "p" || tag === "blockquote" || tag === "table");
  }

  function close(tag: string): void {
    if (/^h[1-6]$/.test(tag)) breakLine(true);
    else if (tag === "ul" || tag === "ol") {
      lists.pop();
      if (lists.length === 0) breakLine(false);
    } else if (tag === "td" || tag === "th") emit(" |");
    else if (tag === "pre") {
      if (pre > 0 && --pre === 0) emit("\n```\n\n");
    } else if (tag === "code") {
      if (pre === 0) emit("`");
    } else if (tag === "a") {
      const at = stack.map((f) => f.tag).lastIndexOf("a");
      if (at <= 0) return;
      while (stack.length - 1 > at) close(top().tag);
      const f = stack.pop()!;
      const inner = f.out.join("").replace(/\s+/g, " ").trim();
      const url = link(f.href, base);
      emit(inner && url && !inner.includes(url) ? `[${inner}](${url})` : inner);
    } else if (BLOCK.has(tag)) breakLine(tag === "p" || tag === "blockquote" || tag === "table");
  }
}

function attr(attrs: string, name: string): string | undefined {
  const m = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'=<>\`]+))`, "i").exec(attrs);
  return m ? (m[1] ?? m[2] ?? m[3]) : undefined;
}

/** An absolute http(s) link, or null for what a reader cannot follow (javascript:, #top). */
function link(href: string | undefined, base: string): string | null {
  if (!href) return null;
  const h = decodeEntities(href).trim();
  if (h.startsWith("#")) return null;
  try {
    const u = new URL(h, base);
    return u.protocol === "http:" || u.protocol === "https:" || u.protocol === "mailto:" ? u.href : null;
  } catch {
    return null;
  }
}

/** Spaces at line ends and starts (but list indents) go, and runs of blank lines; code blocks
 *  keep their layout. */
function tidy(s: string): string {
  return s
    .split(/(\n```\n[\s\S]*?\n```\n)/)
    .map((part, i) => (i % 2 === 1 ? part : part.split("\n").map((l) => l.replace(/[ \t]+$/, "").replace(/^[ \t]+(.*)$/, (whole, rest: string) => (/^(?:-|\d+\.) /.test(rest) ? whole : rest))).join("\n")))
    .join("")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
