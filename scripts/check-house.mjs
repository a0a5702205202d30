#!/usr/bin/env node
// The house rules that keep the code readable, checked rather than reviewed (issue #38). Run by
// `npm run lint`.
//   node scripts/check-house.mjs [--root DIR] [--update]
// Over the .ts files of src/ and mods/:
//   - a file holds at most FILE_MAX lines: no exceptions (split along lines a reader would draw);
//   - a line holds at most LINE_MAX characters, as a ratchet: scripts/house-baseline.json keeps,
//     per file, how many longer lines it had when the rule came (data tables, long messages);
//     that number may only fall. A file not in the baseline may have none. `--update` writes
//     the counts as they are now (after shortening lines; never to let new ones in — review
//     sees the baseline's diff).
// Exit 0 when the rules hold; exit 1 naming each file and what is over.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { sourceFiles } from "./source-files.mjs";

export const FILE_MAX = 400;
export const LINE_MAX = 160;

const here = dirname(fileURLToPath(import.meta.url));
const argRoot = process.argv.indexOf("--root");
const root = resolve(argRoot > 0 ? process.argv[argRoot + 1] : join(here, ".."));
const baselineFile = join(root, "scripts", "house-baseline.json");

const files = ["src", "mods"].flatMap((d) => sourceFiles(join(root, d), /\.ts$/)).sort();
const long = {};
const problems = [];
for (const f of files) {
  const rel = relative(root, f).split("\\").join("/");
  const lines = readFileSync(f, "utf8").split("\n");
  if (lines.at(-1) === "") lines.pop();
  if (lines.length > FILE_MAX) problems.push(`${rel}: ${lines.length} lines (at most ${FILE_MAX}: split it along lines a reader would draw)`);
  const n = lines.filter((l) => l.length > LINE_MAX).length;
  if (n > 0) long[rel] = n;
}

if (process.argv.includes("--update")) {
  writeFileSync(baselineFile, `${JSON.stringify({ lineMax: LINE_MAX, longLines: long }, null, 2)}\n`);
  console.log(`check-house: baseline written (${Object.keys(long).length} files with lines over ${LINE_MAX} characters)`);
  process.exit(0);
}

let baseline = {};
try {
  baseline = JSON.parse(readFileSync(baselineFile, "utf8")).longLines ?? {};
} catch (err) {
  problems.push(`${relative(root, baselineFile)}: cannot be read (${err.message}); run node scripts/check-house.mjs --update`);
}
for (const [rel, n] of Object.entries(long)) {
  const was = baseline[rel] ?? 0;
  if (n > was) problems.push(`${rel}: ${n} lines over ${LINE_MAX} characters (${was === 0 ? "none allowed" : `at most ${was}, as it had`}): wrap the new ones`);
}

if (problems.length > 0) {
  console.error(`check-house: ${problems.length} rule(s) broken:\n${problems.map((p) => `  ${p}`).join("\n")}`);
  process.exit(1);
}
const debt = Object.values(long).reduce((a, b) => a + b, 0);
console.log(`check-house: ${files.length} files, none over ${FILE_MAX} lines; ${debt} lines over ${LINE_MAX} characters, none new`);
