// Claude Code's output styles, found and read: the built-in ones (Default, Explanatory,
// Learning; their text is deepcode's own), the enabled plugins' `output-styles/` folders, the
// person's `~/.claude/output-styles/*.md` and the project's `.claude/output-styles/*.md`. A
// file is Markdown with a frontmatter of `name` (else the file's name), `description` and
// `keep-coding-instructions` (default false); its body is the style. A later place wins a name
// (the project's over the person's over a plugin's over a built-in one); a plugin's styles are
// named `<plugin>:<name>`. Names compare without case, as Claude Code's setting does.

import { createHash } from "node:crypto";
import { readdirSync } from "node:fs";
import { basename, join } from "node:path";
import type { Contribution, PluginApi } from "../../src/contract/index.js";
import { parseFrontmatter } from "../../src/lib/frontmatter.js";

export interface Style {
  name: string;
  description: string;
  /** The text added to the system prompt; "" for Default. */
  text: string;
  /** Keep deepcode's coding instructions (the base section) beside the style. */
  keepCoding: boolean;
  /** Where it comes from: `built-in`, `plugin x`, `~/.claude/output-styles/a.md` … */
  source: string;
}

/** A style file longer than this is not read (it would ride on every request). */
const MAX_STYLE_BYTES = 64 * 1024;

export const BUILTIN_STYLES: readonly Style[] = [
  { name: "Default", description: "deepcode's own way of working: concise, the result first", text: "", keepCoding: true, source: "built-in" },
  {
    name: "Explanatory",
    description: "works as usual and explains its choices and the codebase's patterns as it goes",
    text: [
      "Besides doing the task, help the user understand it. Before and after writing code, add short",
      "\"Insight\" notes (two or three points) about why you chose an approach, the trade-offs, and the",
      "patterns of this codebase that matter. Keep the notes specific to the code at hand, not general advice.",
    ].join("\n"),
    keepCoding: true,
    source: "built-in",
  },
  {
    name: "Learning",
    description: "pairs with the user: explains, and asks them to write small, meaningful pieces themselves",
    text: [
      "Work with the user so they learn by doing. Share short \"Insight\" notes on choices and patterns,",
      "and where a small piece of code (5–10 lines) carries a real decision — a condition, a data shape, an",
      "error path — leave it for the user: write a TODO(human) marker where it goes, say what it should do",
      "and which trade-offs to weigh, and wait for them. Do the routine parts yourself.",
    ].join("\n"),
    keepCoding: true,
    source: "built-in",
  },
];

interface Place {
  dir: string;
  source: (file: string) => string;
  prefix?: string;
  within?: string[];
  /** An installed plugin's file hashes: a file not listed, or changed, is not read. */
  pins?: Readonly<Record<string, string>>;
}

/** Every style, later places winning; `problems` receives a file that could not be read. */
export function loadStyles(api: Pick<PluginApi, "readOwnFile" | "root">, userHome: string, plugins: readonly Contribution[], problems: string[]): Style[] {
  const byName = new Map<string, Style>(BUILTIN_STYLES.map((s) => [s.name.toLowerCase(), s]));
  const places: Place[] = [
    ...plugins.map((c): Place => {
      const prefix = `${c.source.split("@")[0]}:`;
      return { dir: c.dir, source: () => `plugin ${c.source}`, prefix, within: [c.dir], pins: c.pins };
    }),
    { dir: join(userHome, ".claude", "output-styles"), source: (f: string) => `~/.claude/output-styles/${f}` },
    { dir: join(api.root, ".claude", "output-styles"), source: (f: string) => `.claude/output-styles/${f}`, within: [api.root] },
  ];
  for (const p of places) {
    for (const file of mdFiles(p.dir)) {
      const r = api.readOwnFile(join(p.dir, file), { within: p.within, maxBytes: MAX_STYLE_BYTES });
      if (!r.ok) {
        if (!r.missing) problems.push(`output style ${p.source(file)}: ${r.reason}; skipped`);
        continue;
      }
      if (r.truncated) {
        problems.push(`output style ${p.source(file)} has more than ${MAX_STYLE_BYTES} bytes; skipped`);
        continue;
      }
      if (p.pins && p.pins[r.path] !== createHash("sha256").update(r.data).digest("hex")) {
        const how = p.pins[r.path] ? "changed" : "added";
        problems.push(`output style ${p.source(file)}: ${how} since its plugin was installed; skipped (deepcode plugin verify)`);
        continue;
      }
      const fm = parseFrontmatter(r.text);
      const field = (k: string): string | undefined => {
        const v = fm.fields.get(k)?.value;
        return typeof v === "string" ? v.trim().replace(/^(["'])(.*)\1$/, "$2") : undefined;
      };
      const name = `${p.prefix ?? ""}${field("name") || basename(file, ".md")}`;
      const keep = field("keep-coding-instructions");
      byName.set(name.toLowerCase(), {
        name,
        description: field("description") ?? "",
        text: fm.body.trim(),
        keepCoding: keep === "true",
        source: p.source(file),
      });
    }
  }
  return [...byName.values()];
}

function mdFiles(dir: string): string[] {
  try {
    return readdirSync(dir).filter((f) => f.toLowerCase().endsWith(".md")).sort();
  } catch {
    return []; // no such folder: no styles there
  }
}
