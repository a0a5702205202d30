// Grep {pattern, path?, glob?, type?, output_mode?, -i?, -n?, -A?, -B?, -C?, head_limit?,
// multiline?}: ripgrep semantics. Runs `rg` when there is one, otherwise the built-in search,
// and both print the same lines for the same tree (grep-rg.ts pins rg's behaviour down,
// grep-search.ts reproduces it). Output, per mode:
//   files_with_matches  "Found N files" then one path per line
//   content             rg's lines: `path:N:text`, context `path-N-text`, `--` between groups
//   count               `path:N` per file, then the total
// Paths are project-relative below the root (absolute outside it), in rg's sorted path order.
// Files that may hold secrets are never read (grep-secrets.ts); a last line says how many were
// left out, so the model can Read one by name (which asks the person).

import { realpathSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import type { ToolContext, ToolOutput, ToolSpec } from "../contract/index.js";
import { GrepPatternError } from "./grep-regex.js";
import { RgError, searchRg, secretsSkippedRg } from "./grep-rg.js";
import { defaultSecretScope, sameAsNote, secretFilter, secretTargetNote, skippedNote, type SecretScope } from "./grep-secrets.js";
import { GrepAbortedError, searchBuiltin, shownPath, type GrepMode, type GrepQuery } from "./grep-search.js";
import { digest } from "./grep-digest.js";
import { FILE_TYPES, typeGlobs } from "./grep-types.js";
import { displayPath, resolvePath } from "../lib/paths.js";
import { comparePaths } from "./walk.js";

/** Lines (or files) shown when head_limit is not given; head_limit 0 shows everything. About
 *  20,000 characters of `path:line:text`: past that a search is too wide to read, and what it
 *  needs is a digest (grep-digest.ts) or a narrower pattern. (It was 1,000 lines, which the
 *  32 KiB result bound cut in the middle.) */
export const GREP_DEFAULT_LIMIT = 250;
/** Longer output lines (minified code) are cut, keeping their start. */
export const GREP_MAX_LINE_CHARS = 1000;

export type GrepInput = {
  pattern: string;
  path?: string;
  glob?: string;
  type?: string;
  output_mode?: GrepMode;
  "-i"?: boolean;
  "-n"?: boolean;
  "-A"?: number;
  "-B"?: number;
  "-C"?: number;
  head_limit?: number;
  multiline?: boolean;
};

const MODES: GrepMode[] = ["files_with_matches", "content", "count"];

/** The Grep tool; `rg()` names the ripgrep binary to use, or null for the built-in search.
 *  `scope()` says where the home folder and deepcode's home are (their secrets are never read);
 *  by default the process's home folder and DEEPCODE_HOME. */
export function createGrepTool(rg: () => string | null, scope: () => SecretScope = defaultSecretScope): ToolSpec<GrepInput> {
  return {
    name: "Grep",
    description: `Searches file contents with a ripgrep regex (escape literal braces: \\{), skipping .gitignored files and secrets. output_mode: files_with_matches (default), content, count. At most ${GREP_DEFAULT_LIMIT} lines or files (head_limit 0: all).`,
    inputSchema: {
      type: "object",
      properties: {
        pattern: { type: "string" },
        path: { type: "string" },
        glob: { type: "string", description: 'e.g. "*.{ts,tsx}"' },
        type: { type: "string", description: "e.g. js, py, rust" },
        output_mode: { type: "string", enum: MODES },
        "-i": { type: "boolean" },
        "-n": { type: "boolean" },
        "-A": { type: "integer", minimum: 0 },
        "-B": { type: "integer", minimum: 0 },
        "-C": { type: "integer", minimum: 0 },
        head_limit: { type: "integer", minimum: 0 },
        multiline: { type: "boolean", description: ". matches newlines" },
      },
      required: ["pattern"],
      additionalProperties: false,
    },
    readOnly: true,
    run: (input, ctx) => grep(input, ctx, rg, scope()),
  };
}

async function grep(input: GrepInput, ctx: ToolContext, rg: () => string | null, scope: SecretScope): Promise<ToolOutput> {
  const mode = input.output_mode ?? "files_with_matches";
  if (!MODES.includes(mode)) return fail(`output_mode must be one of ${MODES.join(", ")}.`);
  const target = throughLinks(ctx.root, input.path ? resolvePath(ctx.root, input.path) : ctx.root);
  let targetIsFile: boolean;
  try {
    targetIsFile = !statSync(target).isDirectory();
  } catch {
    return fail(`Path does not exist: ${displayPath(ctx.root, target)}`);
  }
  const secrets = secretFilter(ctx.root, scope);
  const secretTarget = targetIsFile ? (secrets.reason(target) ?? (secrets.isSecretFile(target) ? secrets.sameAs[0].why : null)) : null;
  if (secretTarget !== null) {
    const shown = displayPath(ctx.root, target);
    return { content: secretTargetNote(shown, secretTarget), summary: `Grep ${shown} → not searched (may hold secrets)`, meta: { skippedSecrets: 1 } };
  }
  let types: readonly string[] | null = null;
  if (input.type) {
    types = typeGlobs(input.type);
    if (!types) return fail(`Unknown type "${input.type}". Known types: ${Object.keys(FILE_TYPES).join(", ")}. Or filter with glob instead.`);
  }
  const q: GrepQuery = {
    pattern: input.pattern,
    mode,
    ignoreCase: input["-i"] === true,
    lineNumbers: input["-n"] !== false,
    before: count(input["-B"] ?? input["-C"]),
    after: count(input["-A"] ?? input["-C"]),
    multiline: input.multiline === true,
    globs: splitGlobs(input.glob ?? ""),
    typeGlobs: types,
    root: ctx.root,
    target,
    targetIsFile,
    secrets,
  };
  const rgPath = rg();
  let lines: string[];
  let cut = false;
  // The files left out as secrets, as shown; null when rg could not list them. Reported only
  // when nothing was found (the answer may be in one of them): listing them takes rg a second
  // walk, not worth paying on every search, and both engines report the same.
  let skipped: string[] | null = [];
  try {
    if (rgPath) {
      ({ lines, cut } = await searchRg(rgPath, q, ctx));
      if (lines.length === 0 && !targetIsFile) skipped = await secretsSkippedRg(rgPath, q, ctx);
    } else {
      const abs: string[] = [];
      lines = await searchBuiltin(q, ctx, abs);
      if (lines.length === 0) skipped = abs.map((p) => shownPath(q, p)).sort(comparePaths);
    }
  } catch (err) {
    if (err instanceof GrepPatternError) return fail(`Invalid pattern ${JSON.stringify(input.pattern)}: ${err.message}`);
    if (err instanceof GrepAbortedError) return fail("Grep was interrupted.");
    if (err instanceof RgError) return fail(`Grep failed: ${err.message}`);
    throw err;
  }
  const hidden = secrets.sameAs.map((s) => ({ shown: shownPath(q, s.abs), why: s.why }));
  return format(input, q, lines, cut, rgPath ? "rg" : "builtin", skipped, hidden);
}

function format(input: GrepInput, q: GrepQuery, all: string[], cut: boolean, engine: string, skipped: string[] | null, hidden: Array<{ shown: string; why: string }>): ToolOutput {
  const limit = input.head_limit === 0 ? Number.POSITIVE_INFINITY : Math.max(1, Math.floor(input.head_limit ?? GREP_DEFAULT_LIMIT));
  // Too many matching lines, and no head_limit asked for: the different ones (grep-digest.ts).
  const digested = q.mode === "content" && input.head_limit === undefined && all.length > limit && q.lineNumbers && q.before === 0 && q.after === 0 ? digest(all, limit) : null;
  const lines = (digested?.lines ?? all.slice(0, limit)).map((l) => (l.length > GREP_MAX_LINE_CHARS ? `${l.slice(0, GREP_MAX_LINE_CHARS)} … [line cut: ${l.length} characters]` : l));
  const pat = input.pattern.length > 40 ? `${input.pattern.slice(0, 37)}...` : input.pattern;
  const meta = { engine, mode: q.mode, results: all.length, truncated: all.length > limit || cut, skippedSecrets: skipped === null ? -1 : skipped.length + hidden.length };
  const unit = q.mode === "content" ? "lines" : "files";
  const more: string[] = [];
  if (digested) more.push(`(${all.length} matching lines; repeats and long runs are summed up above. Narrow the search, or pass head_limit to list them as they are.)`);
  else if (all.length > limit) more.push(`(Showing the first ${limit} of ${all.length} ${unit}. Narrow the search, or raise head_limit.)`);
  if (cut) more.push("(The search printed too much; the middle of its output was dropped. Narrow the search.)");
  const note = skippedNote(skipped ?? [], skipped === null);
  if (note) more.push(note);
  const same = sameAsNote(hidden.map((h) => h.shown), hidden.map((h) => h.why));
  if (same) more.push(same);
  if (all.length === 0) {
    const none = q.mode === "files_with_matches" ? "No files found" : "No matches found";
    return { content: [none, ...more].join("\n"), summary: `Grep ${pat} → ${q.mode === "files_with_matches" ? "0 files" : "no matches"}`, meta };
  }
  if (q.mode === "files_with_matches") {
    const n = all.length;
    return {
      content: [`Found ${n} file${n === 1 ? "" : "s"}`, ...lines, ...more].join("\n"),
      summary: `Grep ${pat} → ${n} file${n === 1 ? "" : "s"}`,
      meta,
    };
  }
  if (q.mode === "count") {
    const total = all.reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(":") + 1)), 0);
    const files = all.length;
    const tally = `${total} matching line${total === 1 ? "" : "s"} in ${files} file${files === 1 ? "" : "s"}`;
    return { content: [...lines, ...more, "", `Found ${tally}.`].join("\n"), summary: `Grep ${pat} → ${tally}`, meta };
  }
  const matches = all.filter((l) => l !== "--").length;
  return { content: [...lines, ...more].join("\n"), summary: `Grep ${pat} → ${matches} line${matches === 1 ? "" : "s"}`, meta };
}

/** rg --glob patterns from the glob parameter: split at whitespace and at commas outside braces. */
export function splitGlobs(glob: string): string[] {
  const out: string[] = [];
  for (const word of glob.trim().split(/\s+/)) {
    let depth = 0;
    let start = 0;
    for (let i = 0; i < word.length; i++) {
      if (word[i] === "\\") i++;
      else if (word[i] === "{") depth++;
      else if (word[i] === "}") depth--;
      else if (word[i] === "," && depth === 0) {
        out.push(word.slice(start, i));
        start = i + 1;
      }
    }
    out.push(word.slice(start));
  }
  return out.filter((g) => g !== "");
}

function count(n: number | undefined): number {
  return n === undefined || !Number.isFinite(n) || n < 0 ? 0 : Math.floor(n);
}

function fail(content: string): ToolOutput {
  return { content, isError: true };
}

/** The search path with a symlink on its way followed (`h` → the home folder): searched, judged
 *  and shown where the files really are, so a link cannot carry a search into ~/.ssh unjudged.
 *  A path with no link below the project root (the root itself may be one) is kept as given. */
function throughLinks(root: string, target: string): string {
  try {
    const real = realpathSync(target);
    const rel = relative(root, target);
    const expected = rel.startsWith("..") ? target : join(realpathSync(root), rel);
    return real === expected ? target : real;
  } catch {
    return target; // missing: the caller says so
  }
}
