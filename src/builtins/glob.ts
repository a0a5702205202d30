// Glob {pattern, path?}: files whose path relative to `path` (default: the project root)
// matches the pattern (glob-match.ts: `*` within a folder, `**` across folders, `{a,b}`, `[ab]`),
// newest first. Hidden files are listed; .gitignore'd files and `.git` are not (walk.ts).

import { statSync } from "node:fs";
import type { ToolOutput, ToolSpec } from "../contract/index.js";
import { globMatch, hasGlob } from "../lib/glob-match.js";
import { displayPath, resolvePath } from "../lib/paths.js";
import { walkFiles } from "./walk.js";

/** Files listed at most, newest first: as Grep's default head_limit (a list longer than that
 *  is read by no one; a narrower pattern is the answer). */
export const GLOB_MAX_RESULTS = 250;

type GlobInput = {
  pattern: string;
  path?: string;
};

export const globTool: ToolSpec<GlobInput> = {
  name: "Glob",
  description: `Lists files below path matching a glob ("src/**/*.ts"), newest first, at most ${GLOB_MAX_RESULTS}, .gitignored ones left out.`,
  inputSchema: {
    type: "object",
    properties: {
      pattern: { type: "string" },
      path: { type: "string" },
    },
    required: ["pattern"],
    additionalProperties: false,
  },
  readOnly: true,
  async run(input, ctx): Promise<ToolOutput> {
    let base = input.path ? resolvePath(ctx.root, input.path) : ctx.root;
    let pattern = input.pattern.replace(/^\.\//, "");
    if (pattern.startsWith("/")) {
      // An absolute pattern: its literal folders become the base.
      const segs = pattern.split("/");
      let i = 1;
      while (i < segs.length - 1 && !hasGlob(segs[i])) i++;
      base = segs.slice(0, i).join("/") || "/";
      pattern = segs.slice(i).join("/");
    }
    const shownBase = displayPath(ctx.root, base);
    try {
      if (!statSync(base).isDirectory()) return { content: `${shownBase} is not a folder.`, isError: true };
    } catch {
      return { content: `Folder does not exist: ${shownBase}`, isError: true };
    }
    const prefix = literalPrefix(pattern);
    const files = walkFiles(base, {
      enter: (rel) => {
        const segs = rel.split("/");
        return segs.every((s, i) => i >= prefix.length || s === prefix[i]);
      },
    });
    const matched: Array<{ path: string; mtime: number }> = [];
    for (const abs of files) {
      const rel = abs.slice(base === "/" ? 1 : base.length + 1);
      if (!globMatch(pattern, rel)) continue;
      try {
        matched.push({ path: displayPath(ctx.root, abs), mtime: statSync(abs).mtimeMs });
      } catch {
        // ENOENT: deleted since the walk listed it
      }
    }
    matched.sort((a, b) => b.mtime - a.mtime || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const where = shownBase === "." ? "" : ` in ${shownBase}`;
    if (matched.length === 0) {
      return { content: `No files match ${input.pattern}${where} (files ignored by .gitignore are not listed).`, summary: `Glob ${input.pattern} → 0 files`, meta: { files: 0 } };
    }
    const shown = matched.slice(0, GLOB_MAX_RESULTS).map((m) => m.path);
    if (matched.length > GLOB_MAX_RESULTS) {
      shown.push(`(${matched.length - GLOB_MAX_RESULTS} more not shown: ${matched.length} files match. Narrow the pattern or the path.)`);
    }
    return {
      content: shown.join("\n"),
      summary: `Glob ${input.pattern}${where} → ${matched.length} file${matched.length === 1 ? "" : "s"}`,
      meta: { files: matched.length, truncated: matched.length > GLOB_MAX_RESULTS },
    };
  },
};

/** The leading folder names of a pattern that contain no glob syntax (`src/lib/**` → [src, lib]). */
function literalPrefix(pattern: string): string[] {
  const segs = pattern.split("/");
  const out: string[] = [];
  for (let i = 0; i < segs.length - 1; i++) {
    if (hasGlob(segs[i]) || segs[i].includes("\\")) break;
    out.push(segs[i]);
  }
  return out;
}
