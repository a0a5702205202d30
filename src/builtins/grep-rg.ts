// Grep through ripgrep (via ctx.run, so the sandbox hook sees it). The flags pin down every
// behaviour the built-in search (grep-search.ts) reproduces: no config file, hidden files
// searched, .git skipped, only .gitignore files as ignore rules (no .ignore/.rgignore, no
// .git/info/exclude, no global excludes) and those also outside a git repository, types from
// our own table, file paths always printed. Content mode runs `--sort path`; the files and
// count modes run in parallel and are sorted here into the same order.

import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import type { ToolContext } from "../contract/index.js";
import type { GrepQuery } from "./grep-search.js";
import { displayPath } from "./paths.js";
import { comparePaths } from "./walk.js";

const RG_TIMEOUT_MS = 120_000;
const RG_MAX_OUTPUT_BYTES = 32 * 1024 * 1024;

export class RgError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RgError";
  }
}

/** The absolute path of `rg` on PATH, or null. */
export function findRg(path = process.env.PATH ?? ""): string | null {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, "rg");
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here (or not executable): try the next PATH entry
    }
  }
  return null;
}

export function rgArgs(q: GrepQuery): string[] {
  const args = [
    "--no-config", "--color=never", "--no-heading", "--with-filename", "--hidden", "--no-require-git",
    "--no-ignore-dot", "--no-ignore-exclude", "--no-ignore-global",
    q.ignoreCase ? "--ignore-case" : "--case-sensitive",
  ];
  if (q.mode === "files_with_matches") args.push("--files-with-matches");
  else if (q.mode === "count") args.push("--count");
  else {
    args.push(q.lineNumbers ? "--line-number" : "--no-line-number", "--sort", "path");
    if (q.before > 0) args.push("--before-context", String(q.before));
    if (q.after > 0) args.push("--after-context", String(q.after));
  }
  if (q.multiline) args.push("--multiline", "--multiline-dotall");
  for (const g of q.globs) args.push("--glob", g);
  args.push("--glob", "!.git");
  if (q.typeGlobs) {
    for (const g of q.typeGlobs) args.push("--type-add", `deepcode:${g}`);
    args.push("--type", "deepcode");
  }
  args.push("--regexp", q.pattern);
  // rg prints paths as it was given them: project-relative below the root, absolute outside.
  const shown = displayPath(q.root, q.target);
  if (shown !== ".") args.push("--", shown);
  return args;
}

/** rg's output lines; `cut` when the output bound dropped some (its marker line is removed). */
export async function searchRg(rg: string, q: GrepQuery, ctx: ToolContext): Promise<{ lines: string[]; cut: boolean }> {
  const r = await ctx.run({
    argv: [rg, ...rgArgs(q)],
    cwd: q.root,
    command: `rg ${q.pattern}`,
    timeoutMs: RG_TIMEOUT_MS,
    maxOutputBytes: RG_MAX_OUTPUT_BYTES,
  });
  if (r.timedOut) throw new RgError(`rg timed out after ${RG_TIMEOUT_MS / 1000} s; narrow the path or the pattern`);
  if (r.interrupted) throw new RgError("interrupted");
  // Exit 1 is "no match"; 2 is an error, but rg still prints what it found in readable files.
  if (r.exitCode === 2 && r.stdout === "") throw new RgError(r.stderr.trim() || "rg failed");
  if (r.exitCode !== 0 && r.exitCode !== 1 && r.exitCode !== 2) throw new RgError(r.stderr.trim() || `rg exited with ${r.exitCode ?? r.signal}`);
  let lines = r.stdout.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  const cut = r.truncatedBytes > 0;
  if (cut) lines = lines.filter((l) => !/^… \[\d+ bytes of output cut\] …$/.test(l));
  if (q.mode === "files_with_matches") lines.sort(comparePaths);
  else if (q.mode === "count") lines.sort((a, b) => comparePaths(a.slice(0, a.lastIndexOf(":")), b.slice(0, b.lastIndexOf(":"))));
  return { lines, cut };
}
