// Tool speed: Grep and Glob over a large tree (this repository's node_modules) against the
// programs a person would run instead — `rg` and GNU `grep -r` for Grep, `rg --files` and
// `find` for Glob — same pattern, side by side. deepcode's Grep runs twice: through rg (what
// users with ripgrep get) and through its built-in search (what everyone else gets). Every
// timing includes starting the process, as it does for the tool. The result counts differ
// where the programs search different files: rg and deepcode skip .gitignore'd folders
// (the repository ignores nested node_modules/ and dist/), grep -r and find do not.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
// BENCH_DIST=<dist folder> measures another build (a before/after comparison).
const dist = process.env.BENCH_DIST ?? fileURLToPath(new URL("../dist", import.meta.url));
const load = (p) => import(pathToFileURL(join(dist, p)).href);
const { builtinTools, findRg } = await load("src/builtins/index.js");
const { Chain } = await load("src/core/chain.js");
const { registerEffects } = await load("src/core/effects.js");
const { createToolContext } = await load("src/core/tool-context.js");
import { fast, fmt, median, table } from "./lib.mjs";

// BENCH_TOOLS_TREE=<folder> runs the same searches over another tree (a 100k-file one, say):
// it becomes the project root and the searches run over all of it.
const treeRoot = process.env.BENCH_TOOLS_TREE;
const root = treeRoot ? treeRoot : fileURLToPath(new URL("..", import.meta.url));
const tree = treeRoot ? "." : "node_modules";

async function time(fn, rounds) {
  await fn(); // warm the page cache and the JIT
  const ms = [];
  let result;
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    result = await fn();
    ms.push(performance.now() - t0);
  }
  return { ms: median(ms), result };
}

function direct(argv) {
  return () => {
    const r = spawnSync(argv[0], argv.slice(1), { cwd: root, encoding: "utf8", maxBuffer: 1 << 30 });
    if (r.error) throw r.error;
    // grep -c also lists files with no match (`path:0`); they are not results.
    return r.stdout.split("\n").filter((l) => l && !l.endsWith(":0")).length;
  };
}

function have(cmd) {
  return spawnSync(cmd, ["--version"], { encoding: "utf8" }).status === 0;
}

export async function run() {
  const rounds = fast ? 2 : 7;
  if (!existsSync(`${root}/${tree}`)) {
    console.log(`\n## tools: skipped (no ${tree}; run npm ci)`);
    return;
  }
  const rg = findRg();
  const grep = have("grep") ? "grep" : null;
  const chain = new Chain();
  registerEffects(chain);
  const ctx = () => createToolContext(chain, { root, sessionId: "bench", callId: "bench" });
  const tools = (rgPath) => new Map(builtinTools({ rgPath }).map((t) => [t.name, t]));
  const viaRg = rg ? tools(rg).get("Grep") : null;
  const builtin = tools(null).get("Grep");
  const glob = tools(null).get("Glob");
  const tool = (t, input) => async () => {
    const r = await t.run(input, ctx());
    if (r.isError) throw new Error(r.content);
    return r.meta.results ?? r.meta.files;
  };

  const searches = [
    { name: "literal, files", pattern: "deprecated", mode: "files_with_matches", rgFlags: ["-l"], grepFlags: ["-l"] },
    { name: "regex, files", pattern: "function\\s+[a-z]+\\(", mode: "files_with_matches", rgFlags: ["-l"], grepFlags: ["-l", "-E"], grepPattern: "function[[:space:]]+[a-z]+\\(" },
    { name: "literal, content", pattern: "deprecated", mode: "content", rgFlags: ["-n"], grepFlags: ["-n"] },
    ...(fast ? [] : [{ name: "regex -i, count", pattern: "todo|fixme", mode: "count", extra: { "-i": true }, rgFlags: ["-c", "-i"], grepFlags: ["-c", "-i", "-E"] }]),
  ];
  const rows = [["Grep over node_modules", "deepcode+rg", "deepcode built-in", "rg", "grep -r", "+rg ÷ rg", "built-in ÷ rg", "built-in ÷ grep", "results (dc / rg / grep)"]];
  for (const s of searches) {
    const input = { pattern: s.pattern, path: tree, output_mode: s.mode, head_limit: 0, ...(s.extra ?? {}) };
    const a = viaRg ? await time(tool(viaRg, input), rounds) : null;
    const b = await time(tool(builtin, input), rounds);
    const c = rg ? await time(direct([rg, "--hidden", "--no-require-git", ...s.rgFlags, "-e", s.pattern, tree]), rounds) : null;
    const d = grep ? await time(direct([grep, "-r", ...s.grepFlags, "-e", s.grepPattern ?? s.pattern, tree]), rounds) : null;
    rows.push([
      s.name,
      a ? fmt.ms(a.ms) : "-",
      fmt.ms(b.ms),
      c ? fmt.ms(c.ms) : "-",
      d ? fmt.ms(d.ms) : "-",
      a && c ? fmt.ratio(a.ms / c.ms) : "-",
      c ? fmt.ratio(b.ms / c.ms) : "-",
      d ? fmt.ratio(b.ms / d.ms) : "-",
      `${b.result} / ${c ? c.result : "-"} / ${d ? d.result : "-"}`,
    ]);
  }
  table("tools: Grep against rg and grep -r (median, process start included)", rows);

  // Peak memory of one Grep, each in a process of its own (bench/tools-memory.mjs): the built-in
  // search must not hold the tree (it reads a window of files, and of a binary only its head).
  const memRows = [["Grep memory over node_modules", "built-in peak RSS", "deepcode+rg peak RSS", "node alone", "results (built-in / +rg)"]];
  const peak = (pattern, mode, via) => {
    const r = spawnSync(process.execPath, [fileURLToPath(new URL("tools-memory.mjs", import.meta.url)), dist, root, tree, pattern, mode, via], { cwd: root, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`tools-memory: ${r.stderr}`);
    return JSON.parse(r.stdout);
  };
  for (const s of searches.slice(0, 3)) {
    const b = peak(s.pattern, s.mode, "builtin");
    const a = rg ? peak(s.pattern, s.mode, "rg") : null;
    const mib = (kib) => `${Math.round(kib / 1024)} MiB`;
    memRows.push([s.name, mib(b.peakKiB), a ? mib(a.peakKiB) : "-", mib(b.startKiB), `${b.results} / ${a ? a.results : "-"}`]);
  }
  table("tools: Grep peak memory (one search per process; maxRSS)", memRows);

  const globRows = [["Glob over node_modules", "deepcode", "rg --files -g", "find", "÷ rg", "÷ find", "files (dc / rg / find)"]];
  for (const [pattern, name] of [["**/*.js", "*.js"], ["**/package.json", "package.json"]]) {
    const a = await time(tool(glob, { pattern, path: tree }), rounds);
    const b = rg ? await time(direct([rg, "--files", "--hidden", "--no-require-git", "-g", pattern, tree]), rounds) : null;
    const c = await time(direct(["find", tree, "-type", "f", "-name", name]), rounds);
    globRows.push([
      pattern,
      fmt.ms(a.ms),
      b ? fmt.ms(b.ms) : "-",
      fmt.ms(c.ms),
      b ? fmt.ratio(a.ms / b.ms) : "-",
      fmt.ratio(a.ms / c.ms),
      `${a.result} / ${b ? b.result : "-"} / ${c.result}`,
    ]);
  }
  table("tools: Glob against rg --files and find (median; deepcode runs in-process, the others include process start)", globRows);
}
