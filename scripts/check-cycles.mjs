#!/usr/bin/env node
// No import circles in src/ and mods/ (issue #25). Run by `npm run lint`.
//   node scripts/check-cycles.mjs [--root DIR]
// Reads the static `import … from "…"`, `import "…"` and `export … from "…"` statements of the
// .ts files under src/ and mods/, resolves relative `.js` specifiers to the `.ts` source, and
// finds strongly connected components (Tarjan). Type-only imports count too: a type circle is
// still a circle a reader has to untangle. Exit 0 when there is none; exit 1 listing each
// circle with its files and every edge inside it, type-only edges marked.
// Dynamic `import()` is not an edge: it runs after both modules have loaded.
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { sourceFiles } from "./source-files.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const argRoot = process.argv.indexOf("--root");
const root = resolve(argRoot > 0 ? process.argv[argRoot + 1] : join(here, ".."));

/** Source text with comments blanked (string contents kept), so a commented-out import is no edge. */
function stripComments(text) {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const n = text[i + 1];
    if (c === "/" && n === "/") {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (c === "/" && n === "*") {
      const end = text.indexOf("*/", i + 2);
      const stop = end < 0 ? text.length : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, " ");
      i = stop;
    } else if (c === '"' || c === "'" || c === "`") {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

const STATEMENT = /(?:^|[;}\n])\s*(import|export)\s+([^;'"`]*?)\s*from\s*(["'])([^"']+)\3|(?:^|[;}\n])\s*import\s*(["'])([^"']+)\5/g;

/** Static import/export specifiers of one file: [{ spec, typeOnly }]. */
function importsOf(file) {
  const text = stripComments(readFileSync(file, "utf8"));
  const found = [];
  for (const m of text.matchAll(STATEMENT)) {
    if (m[6] !== undefined) {
      found.push({ spec: m[6], typeOnly: false });
      continue;
    }
    const clause = m[2];
    let typeOnly = /^type\b/.test(clause);
    // `import { type A, type B } from` loads nothing at run time either.
    const braces = /^\{([^}]*)\}$/.exec(clause);
    if (!typeOnly && braces) {
      const names = braces[1].split(",").map((s) => s.trim()).filter(Boolean);
      typeOnly = names.length > 0 && names.every((s) => /^type\s/.test(s));
    }
    found.push({ spec: m[4], typeOnly });
  }
  return found;
}

/** The .ts file a relative specifier names, or null (package, node:*, or not found). */
function resolveSpec(from, spec) {
  if (!spec.startsWith(".")) return null;
  const base = resolve(dirname(from), spec);
  const candidates = [base.replace(/\.js$/, ".ts"), base.replace(/\.mjs$/, ".mts"), base.replace(/\.cjs$/, ".cts"), base + ".ts", join(base, "index.ts"), base];
  for (const c of candidates) if (/\.(ts|mts|cts)$/.test(c) && existsSync(c) && statSync(c).isFile()) return c;
  return null;
}

const files = ["src", "mods"].flatMap((d) => sourceFiles(join(root, d), /\.(ts|mts|cts)$/)).sort();
/** file → Map(target → typeOnly); an edge is type-only when every import of that target is. */
const graph = new Map();
for (const f of files) {
  const edges = new Map();
  for (const { spec, typeOnly } of importsOf(f)) {
    const t = resolveSpec(f, spec);
    if (!t || t === f || !graph.has(t) && !files.includes(t)) continue;
    edges.set(t, (edges.get(t) ?? true) && typeOnly);
  }
  graph.set(f, edges);
}

// Tarjan's strongly connected components, iterative so a deep graph cannot overflow the stack.
function tarjan() {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const sccs = [];
  for (const start of graph.keys()) {
    if (idx.has(start)) continue;
    const work = [{ v: start, it: graph.get(start).keys() }];
    idx.set(start, index);
    low.set(start, index++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const top = work[work.length - 1];
      const next = top.it.next();
      if (!next.done) {
        const w = next.value;
        if (!idx.has(w)) {
          idx.set(w, index);
          low.set(w, index++);
          stack.push(w);
          onStack.add(w);
          work.push({ v: w, it: graph.get(w).keys() });
        } else if (onStack.has(w)) {
          low.set(top.v, Math.min(low.get(top.v), idx.get(w)));
        }
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1].v;
        low.set(parent, Math.min(low.get(parent), low.get(top.v)));
      }
      if (low.get(top.v) === idx.get(top.v)) {
        const scc = [];
        let w;
        do {
          w = stack.pop();
          onStack.delete(w);
          scc.push(w);
        } while (w !== top.v);
        if (scc.length > 1) sccs.push(scc.sort());
      }
    }
  }
  return sccs;
}

const rel = (p) => relative(root, p).split(sep).join("/");
const sccs = tarjan();
if (sccs.length === 0) {
  console.log(`check-cycles: ${files.length} files, no import circles`);
  process.exit(0);
}
for (const [i, scc] of sccs.entries()) {
  const members = new Set(scc);
  const lines = [];
  let runtime = false;
  for (const f of scc) {
    for (const [t, typeOnly] of graph.get(f)) {
      if (!members.has(t)) continue;
      if (!typeOnly) runtime = true;
      lines.push(`    ${rel(f)} -> ${rel(t)}${typeOnly ? "  (type-only)" : ""}`);
    }
  }
  console.log(`circle ${i + 1} (${scc.length} files${runtime ? "" : ", type-only"}):`);
  for (const f of scc) console.log(`  ${rel(f)}`);
  console.log("  edges:");
  for (const l of lines) console.log(l);
}
console.log(`check-cycles: ${sccs.length} import circle(s); move the shared piece so the dependency points one way`);
process.exit(1);
