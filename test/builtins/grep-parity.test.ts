// Grep prints the same lines through `rg` and through the built-in search, on the same tree,
// for every output mode and the flags that change what is printed.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { findRg } from "../../src/builtins/index.js";
import { session } from "./helpers.js";
import { writeProjectTree } from "./tree.js";

const rg = findRg();

const QUERIES: Array<Record<string, unknown>> = [
  { pattern: "needle" },
  { pattern: "needle", output_mode: "content" },
  { pattern: "needle", output_mode: "content", "-n": false },
  { pattern: "needle", output_mode: "count" },
  { pattern: "NEEDLE", "-i": true, output_mode: "content" },
  { pattern: "needle", output_mode: "content", "-C": 1 },
  { pattern: "needle", output_mode: "content", "-A": 2 },
  { pattern: "needle", output_mode: "content", "-B": 3, "-n": false },
  { pattern: "line [0-9]", output_mode: "content", "-A": 1, "-B": 1 },
  { pattern: "needle", glob: "*.ts" },
  { pattern: "needle", glob: "!*.ts", output_mode: "count" },
  { pattern: "needle", glob: "src/**/*.ts", output_mode: "content" },
  { pattern: "needle", glob: "*.{js,md}" },
  { pattern: "needle", glob: "*.log" },
  { pattern: "needle", type: "ts", output_mode: "count" },
  { pattern: "needle", type: "js" },
  { pattern: "needle", type: "md", output_mode: "content", "-C": 5 },
  { pattern: "needle", path: "src" },
  { pattern: "needle", path: "src", output_mode: "content" },
  { pattern: "needle", path: "src/a.ts", output_mode: "content" },
  { pattern: "needle", path: "build/x.ts", output_mode: "content" },
  { pattern: "needle", path: "bin/data.bin", output_mode: "count" },
  { pattern: "needle", path: "bin/data.bin", output_mode: "content" },
  { pattern: "^needle", output_mode: "content" },
  { pattern: "needle$", output_mode: "content" },
  { pattern: "two$", output_mode: "count" },
  { pattern: "\\bneedle\\b", output_mode: "count" },
  { pattern: "(?i)café", output_mode: "content" },
  { pattern: "need.e", output_mode: "count" },
  { pattern: "[[:upper:]]EEDLE", output_mode: "content" },
  { pattern: "\\d+", output_mode: "content" },
  { pattern: "\\w+Needle", output_mode: "content" },
  { pattern: "needle\\n\\s*more", multiline: true, output_mode: "content" },
  { pattern: "needle\\n\\s*more", multiline: true, output_mode: "count" },
  { pattern: "Needle.*?needle", multiline: true, output_mode: "content", "-A": 1 },
  { pattern: "needle", output_mode: "content", head_limit: 3 },
  { pattern: "needle", head_limit: 2 },
  { pattern: "nothing-matches-this" },
  { pattern: "", path: "noeol.txt", output_mode: "content" },
  { pattern: "needle", path: "src/a.ts", output_mode: "content", "-C": 3 },
  { pattern: "^", multiline: true, output_mode: "count" },
  { pattern: "^\\s*$", multiline: true, output_mode: "content", path: "docs" },
  { pattern: "\\Aneedle", output_mode: "count" },
  { pattern: "needle\\z", output_mode: "content" },
  { pattern: "café", "-i": true, output_mode: "content" },
  { pattern: "one.$", output_mode: "content" },
  { pattern: "\\x{65}e\\x64", output_mode: "count" },
  { pattern: "\\p{Han}+", output_mode: "content" },
  { pattern: "\\pL+ needle", output_mode: "content" },
  { pattern: "\\.indexOf\\(", output_mode: "content" },
  { pattern: "needle", glob: "src/*.ts", output_mode: "count" },
  { pattern: "x", path: "src/a", output_mode: "content", "-n": false },
];

describe.skipIf(rg === null)("Grep through rg and through the built-in search print the same", () => {
  for (const q of QUERIES) {
    it(`for ${JSON.stringify(q)}`, async () => {
      const viaRg = session();
      writeProjectTree(viaRg.root);
      const builtin = session({ root: viaRg.root, rgPath: null });
      const a = await viaRg.call("Grep", q);
      const b = await builtin.call("Grep", q);
      expect(a.meta!.engine).toBe("rg");
      expect(b.meta!.engine).toBe("builtin");
      expect(b.content).toBe(a.content);
      expect(b.summary).toBe(a.summary);
      expect(a.isError).toBeFalsy();
    });
  }

  it("and both leave out what .gitignore ignores, and .git", async () => {
    const s = session();
    writeProjectTree(s.root);
    for (const engine of [rg, null]) {
      const r = await session({ root: s.root, rgPath: engine }).call("Grep", { pattern: "needle" });
      expect(r.content).not.toMatch(/node_modules|app\.log|^build\/|src\/out|docs\/a\.tmp|generated|\.git\/|data\.bin|#literal/m);
      expect(r.content).toMatch(/^keep\.log$/m);
      expect(r.content).toMatch(/^src\/deep\/important\.log$/m);
      expect(r.content).toMatch(/^\.hidden\/secret\.ts$/m);
      expect(r.content).toMatch(/^docs\/sub\/b\.tmp$/m);
      expect(r.content).toMatch(/^src\/build\/y\.ts$/m);
    }
  });

  it("and the walk lists the files `rg --files` lists", () => {
    const s = session();
    writeProjectTree(s.root);
    const out = execFileSync(rg!, ["--files", "--hidden", "--no-require-git", "--no-ignore-dot", "--no-ignore-exclude", "--no-ignore-global", "-g", "!.git", "--sort", "path"], { cwd: s.root, encoding: "utf8" });
    return s.call("Glob", { pattern: "**" }).then((r) => {
      expect(r.content.split("\n").sort()).toEqual(out.trim().split("\n").sort());
    });
  });
});
