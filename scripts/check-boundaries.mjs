#!/usr/bin/env node
// DESIGN.md §2 as code: who may import whom. Run by `npm run lint`.
//   node scripts/check-boundaries.mjs [--root DIR]
// Exit 0 when every import is allowed; exit 1 listing each violation as
//   file:line: imports 'spec' — rule
import { readFileSync } from "node:fs";
import { builtinModules, createRequire } from "node:module";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { sourceFiles } from "./source-files.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const ts = createRequire(join(here, "..", "package.json"))("typescript");

const argRoot = process.argv.indexOf("--root");
const root = resolve(argRoot > 0 ? process.argv[argRoot + 1] : join(here, ".."));
const builtins = new Set(builtinModules);

/** The layer a file (path relative to root, with /) belongs to, or null when unchecked. */
function layerOf(rel) {
  const m = /^(src\/(contract|lib|core|providers|builtins|cli)|mods\/[^/]+|plugins\/[^/]+)\//.exec(rel);
  if (!m) return null;
  if (m[2]) return { kind: m[2], dir: m[1] };
  return { kind: m[1].startsWith("mods/") ? "mod" : "plugin", dir: m[1] };
}

// src/lib holds pure helpers that mods and every src folder share (so nothing is written twice
// past the mod boundary); it imports only itself, node:* and the contract's types.
const RULES = {
  contract: { text: "src/contract imports nothing outside src/contract", allow: (t) => t.dir === "src/contract", node: false },
  lib: { text: "src/lib may import itself, node:* and types of src/contract", allow: (t, f, typeOnly) => t.dir === f.dir || (typeOnly && t.dir === "src/contract"), node: true },
  core: { text: "src/core may import src/contract, src/lib and node:*", allow: (t, f) => t.dir === f.dir || t.dir === "src/contract" || t.dir === "src/lib", node: true },
  providers: { text: "src/providers may import src/contract, src/lib and node:*", allow: (t, f) => t.dir === f.dir || t.dir === "src/contract" || t.dir === "src/lib", node: true },
  builtins: { text: "src/builtins may import src/contract, src/lib and node:*", allow: (t, f) => t.dir === f.dir || t.dir === "src/contract" || t.dir === "src/lib", node: true },
  cli: { text: "src/cli may import anything in src/ and node:*", allow: (t) => t.dir.startsWith("src/"), node: true },
  mod: { text: "a mod may import src/contract, src/lib, its own files and node:*", allow: (t, f) => t.dir === f.dir || t.dir === "src/contract" || t.dir === "src/lib", node: true },
  plugin: {
    text: "a plugin gets only what the registration callback hands it (type-only imports of src/contract, src/lib, its own files, node:*)",
    allow: (t, f, typeOnly) => t.dir === f.dir || t.dir === "src/lib" || (typeOnly && t.dir === "src/contract"),
    node: true,
  },
};

function importsOf(file) {
  const text = readFileSync(file, "utf8");
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found = [];
  const add = (node, spec, typeOnly) => {
    const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
    found.push({ spec, typeOnly, line: line + 1 });
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const c = node.importClause;
      const typeOnly = !!c && (c.isTypeOnly || (!c.name && !!c.namedBindings && ts.isNamedImports(c.namedBindings) && c.namedBindings.elements.length > 0 && c.namedBindings.elements.every((e) => e.isTypeOnly)));
      add(node, node.moduleSpecifier.text, typeOnly);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node, node.moduleSpecifier.text, node.isTypeOnly);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
      add(node, node.moduleReference.expression.text, node.isTypeOnly);
    } else if (ts.isCallExpression(node) && node.arguments.length >= 1 && ts.isStringLiteralLike(node.arguments[0])) {
      const isImport = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(node.expression) && node.expression.text === "require";
      if (isImport || isRequire) add(node, node.arguments[0].text, false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node, node.argument.literal.text, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

const violations = [];
const files = ["src", "mods", "plugins"].flatMap((d) => sourceFiles(join(root, d), /\.(ts|mts|cts|js|mjs|cjs)$/));
for (const file of files) {
  const rel = relative(root, file).split(sep).join("/");
  const from = layerOf(rel);
  if (!from) continue;
  const rule = RULES[from.kind];
  for (const { spec, typeOnly, line } of importsOf(file)) {
    let why = null;
    if (spec.startsWith("node:")) {
      if (!rule.node) why = rule.text;
    } else if (spec.startsWith(".")) {
      const target = relative(root, resolve(dirname(file), spec)).split(sep).join("/");
      const to = layerOf(target.endsWith("/") ? target : `${target}/`) ?? layerOf(target) ?? { kind: "outside", dir: target };
      if (!rule.allow(to, from, typeOnly)) why = rule.text;
    } else if (builtins.has(spec)) {
      why = `Node built-ins are imported with the node: prefix ('node:${spec}')`;
    } else {
      why = `deepcode has no runtime dependencies: '${spec}' is a package (use the platform)`;
    }
    if (why) violations.push(`${rel}:${line}: imports '${spec}' — ${why}`);
  }
}

if (violations.length) {
  console.error(`boundary check: ${violations.length} violation(s) of DESIGN.md §2`);
  for (const v of violations) console.error(`  ${v}`);
  process.exit(1);
}
console.log(`boundary check: ${files.length} files, no violations`);
