import { afterEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const script = fileURLToPath(new URL("../../scripts/check-cycles.mjs", import.meta.url));
let tree = "";

function plant(files: Record<string, string>): { status: number | null; out: string } {
  tree = mkdtempSync(join(tmpdir(), "cycles-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(tree, path)), { recursive: true });
    writeFileSync(join(tree, path), text);
  }
  const r = spawnSync(process.execPath, [script, "--root", tree], { encoding: "utf8" });
  return { status: r.status, out: r.stdout + r.stderr };
}

afterEach(() => rmSync(tree, { recursive: true, force: true }));

const clean = {
  "src/core/types.ts": "export interface X { a: number }\n",
  "src/core/a.ts": "import type { X } from './types.js';\nimport { readFileSync } from 'node:fs';\nexport const a: X = { a: 1 }; void readFileSync;\n",
  "src/core/b.ts": "import {\n  a,\n} from './a.js';\nexport { a };\n// import { c } from './c.js';\nexport const late = () => import('./c.js');\n",
  "src/core/c.ts": "import { a } from './b.js';\nexport const c = a;\n",
  "mods/m/index.ts": "export * from './part.js';\n",
  "mods/m/part.ts": "export const part = 1;\n",
};

describe("the import-circle script", () => {
  it("passes a tree without circles (comments and dynamic import() are no edges)", () => {
    const r = plant(clean);
    expect(r.out).toMatch(/no import circles/);
    expect(r.status).toBe(0);
  });

  it("fails on a run-time circle, naming its files and edges", () => {
    const r = plant({ ...clean, "src/core/a.ts": "import { c } from './c.js';\nexport const a = c;\n" });
    expect(r.status).toBe(1);
    expect(r.out).toMatch(/circle 1 \(3 files\):/);
    expect(r.out).toContain("src/core/a.ts -> src/core/c.ts\n");
    expect(r.out).toContain("src/core/b.ts -> src/core/a.ts\n");
    expect(r.out).toContain("src/core/c.ts -> src/core/b.ts\n");
  });

  it("fails on a type-only circle too, marking the type-only edges", () => {
    const r = plant({ ...clean, "src/core/types.ts": "import { type C } from './c.js';\nexport interface X { a: number; c?: C }\n", "src/core/c.ts": "import { a } from './b.js';\nexport const c = a;\nexport type C = number;\n" });
    expect(r.status).toBe(1);
    expect(r.out).toContain("src/core/types.ts -> src/core/c.ts  (type-only)");
    expect(r.out).toContain("src/core/a.ts -> src/core/types.ts  (type-only)");
  });

  it("follows re-exports through an index file in mods/", () => {
    const r = plant({ ...clean, "mods/m/part.ts": "import type { X } from './index.js';\nexport const part = 1;\nexport type Y = X;\n" });
    expect(r.status).toBe(1);
    expect(r.out).toContain("mods/m/index.ts -> mods/m/part.ts\n");
  });
});
