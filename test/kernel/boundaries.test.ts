import { afterEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const script = fileURLToPath(new URL("../../scripts/check-boundaries.mjs", import.meta.url));
let tree = "";

function plant(files: Record<string, string>): { status: number | null; out: string } {
  tree = mkdtempSync(join(tmpdir(), "boundaries-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(tree, path)), { recursive: true });
    writeFileSync(join(tree, path), text);
  }
  const r = spawnSync(process.execPath, [script, "--root", tree], { encoding: "utf8" });
  return { status: r.status, out: r.stdout + r.stderr };
}

afterEach(() => rmSync(tree, { recursive: true, force: true }));

const clean = {
  "src/contract/index.ts": "export type X = 1;\n",
  "src/core/a.ts": "import type { X } from '../contract/index.js';\nimport { readFileSync } from 'node:fs';\nexport const a: X = 1; void readFileSync;\n",
  "src/cli/main.ts": "import { a } from '../core/a.js';\nimport { b } from '../providers/b.js';\nexport { a, b };\n",
  "src/providers/b.ts": "export const b = 2;\n",
  "src/lib/json.ts": "import type { X } from '../contract/index.js';\nimport { readFileSync } from 'node:fs';\nimport { h } from './h.js';\nexport const j: X = 1; void readFileSync; void h;\n",
  "src/lib/h.ts": "export const h = 0;\n",
  "src/core/uses-lib.ts": "import { j } from '../lib/json.js';\nexport const u = j;\n",
  "mods/hooks/uses-lib.ts": "import { j } from '../../src/lib/json.js';\nexport const u = j;\n",
  "plugins/example/uses-lib.ts": "import { j } from '../../src/lib/json.js';\nexport const u = j;\n",
  "mods/hooks/index.ts": "import { helper } from './helper.js';\nimport type { X } from '../../src/contract/index.js';\nexport default { id: 'hooks', register() { helper(); } };\nexport type Y = X;\n",
  "mods/hooks/helper.ts": "export function helper() {}\n",
  "plugins/example/index.ts": "import type { X } from '../../src/contract/index.js';\nexport type Z = X;\n",
};

describe("the boundary script enforces DESIGN.md §2", () => {
  it("passes a tree that follows the table", () => {
    expect(plant(clean)).toMatchObject({ status: 0 });
  });

  const cases: Array<[string, string, string, RegExp]> = [
    ["contract importing node", "src/contract/bad.ts", "import { x } from 'node:fs';\n", /src\/contract\/bad.ts:1: imports 'node:fs' — src\/contract imports nothing/],
    ["core importing cli", "src/core/bad.ts", "\n\nimport { main } from '../cli/main.js';\n", /src\/core\/bad.ts:3: imports '..\/cli\/main.js' — src\/core may import src\/contract, src\/lib and node/],
    ["providers importing core", "src/providers/bad.ts", "export { a } from '../core/a.js';\n", /imports '..\/core\/a.js' — src\/providers may import/],
    ["builtins importing a provider dynamically", "src/builtins/bad.ts", "export const m = () => import('../providers/b.js');\n", /src\/builtins may import/],
    ["a mod importing core", "mods/hooks/bad.ts", "import { a } from '../../src/core/a.js';\n", /a mod may import src\/contract, src\/lib, its own files/],
    ["a mod importing another mod", "mods/hooks/bad.ts", "import { z } from '../other/z.js';\n", /a mod may import/],
    ["a plugin importing contract at run time", "plugins/example/bad.ts", "import { CATALOGUE } from '../../src/contract/index.js';\n", /a plugin gets only what the registration callback hands it/],
    ["the lib importing core", "src/lib/bad.ts", "import { a } from '../core/a.js';\n", /src\/lib\/bad.ts:1: imports '..\/core\/a.js' — src\/lib may import itself, node:\* and types of src\/contract/],
    ["the lib importing contract at run time", "src/lib/bad.ts", "import { CATALOGUE } from '../contract/index.js';\n", /src\/lib may import itself/],
    ["the lib importing a mod", "src/lib/bad.ts", "export { helper } from '../../mods/hooks/helper.js';\n", /src\/lib may import itself/],
    ["a runtime package", "src/core/bad.ts", "import chalk from 'chalk';\n", /'chalk' is a package/],
    ["a bare built-in name", "src/core/bad.ts", "const fs = require('fs');\n", /with the node: prefix \('node:fs'\)/],
  ];
  for (const [name, path, text, expected] of cases) {
    it(`fails on ${name}, naming the file, the import and the rule`, () => {
      const r = plant({ ...clean, [path]: text });
      expect(r.status).toBe(1);
      expect(r.out).toMatch(expected);
    });
  }
});
