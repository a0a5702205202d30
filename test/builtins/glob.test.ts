import { describe, expect, it } from "vitest";
import { utimesSync } from "node:fs";
import { join } from "node:path";
import { session, writeTree } from "./helpers.js";
import { writeProjectTree } from "./tree.js";

describe("Glob finds files by pattern", () => {
  it("lists matching files newest first, project-relative", async () => {
    const s = session();
    writeTree(s.root, { "a.ts": "", "b.ts": "", "c.js": "", "sub/d.ts": "" });
    const t = Date.now() / 1000;
    utimesSync(join(s.root, "a.ts"), t, t - 300);
    utimesSync(join(s.root, "b.ts"), t, t - 100);
    utimesSync(join(s.root, "sub/d.ts"), t, t - 200);
    const r = await s.call("Glob", { pattern: "**/*.ts" });
    expect(r.content).toBe("b.ts\nsub/d.ts\na.ts");
    expect(r.summary).toBe("Glob **/*.ts → 3 files");
  });

  it("matches `*` within one folder only, relative to path", async () => {
    const s = session();
    writeTree(s.root, { "a.ts": "", "sub/b.ts": "", "sub/deeper/c.ts": "" });
    expect((await s.call("Glob", { pattern: "*.ts" })).content).toBe("a.ts");
    expect((await s.call("Glob", { pattern: "*.ts", path: "sub" })).content).toBe("sub/b.ts");
    expect((await s.call("Glob", { pattern: "sub/*/*.ts" })).content).toBe("sub/deeper/c.ts");
  });

  it("respects .gitignore: nested files, negation, escapes, folder-only and anchored rules; skips .git", async () => {
    const s = session();
    writeProjectTree(s.root);
    const r = await s.call("Glob", { pattern: "**/*" });
    const files = r.content.split("\n").sort();
    expect(files).toEqual(
      [
        ".env", ".gitignore", ".hidden/secret.ts", "bin/data.bin", "crlf.txt", "docs/readme.md",
        "docs/sub/b.tmp", "keep.log", "noeol.txt", "out", "src/a.ts", "src/a/x.ts", "src/b.js", "src/build/y.ts",
        "src/deep/.gitignore", "src/deep/c.ts", "src/deep/important.log", "src/util/A.ts", "src/util/_b.ts", "src/util/a.ts",
        "unicode.txt",
      ].sort(),
    );
  });

  it("accepts brace alternatives and an absolute pattern", async () => {
    const s = session();
    writeTree(s.root, { "a.ts": "", "b.tsx": "", "c.js": "" });
    expect((await s.call("Glob", { pattern: "*.{ts,tsx}" })).content.split("\n").sort()).toEqual(["a.ts", "b.tsx"]);
    expect((await s.call("Glob", { pattern: `${s.root}/*.js` })).content).toBe("c.js");
  });

  it("says so when nothing matches, and when the folder does not exist", async () => {
    const s = session();
    const none = await s.call("Glob", { pattern: "*.rs" });
    expect(none.content).toContain("No files match *.rs");
    expect(none.isError).toBeFalsy();
    const missing = await s.call("Glob", { pattern: "*", path: "nope" });
    expect(missing).toMatchObject({ isError: true, content: "Folder does not exist: nope" });
  });

  it("lists at most 250 files and says how many more match", async () => {
    const s = session();
    const files: Record<string, string> = {};
    for (let i = 0; i < 255; i++) files[`f/${i}.txt`] = "";
    writeTree(s.root, files);
    const r = await s.call("Glob", { pattern: "f/*.txt" });
    const lines = r.content.split("\n");
    expect(lines).toHaveLength(251);
    expect(lines[250]).toContain("5 more not shown: 255 files match");
  });
});
