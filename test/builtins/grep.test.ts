import { describe, expect, it } from "vitest";
import { findRg } from "../../src/builtins/index.js";
import { session, tempDir, writeTree } from "./helpers.js";

// Behaviour a user sees, checked on both search paths where rg is installed.
const engines: Array<[string, string | null]> = [["the built-in search", null]];
const rg = findRg();
if (rg) engines.push(["rg", rg]);

describe.each(engines)("Grep through %s", (_name, rgPath) => {
  const project = (files: Record<string, string>) => {
    const s = session({ rgPath });
    writeTree(s.root, files);
    return s;
  };

  it("lists matching files by default, with a count first", async () => {
    const s = project({ "a.ts": "foo\n", "b.ts": "bar\n", "c/d.ts": "foo\n" });
    const r = await s.call("Grep", { pattern: "foo" });
    expect(r.content).toBe("Found 2 files\na.ts\nc/d.ts");
    expect(r.summary).toBe("Grep foo → 2 files");
  });

  it("shows matching lines as path:line:text in content mode", async () => {
    const s = project({ "a.ts": "one\nfoo two\nthree\n" });
    const r = await s.call("Grep", { pattern: "foo", output_mode: "content" });
    expect(r.content).toBe("a.ts:2:foo two");
  });

  it("counts matching lines per file and in all", async () => {
    const s = project({ "a.ts": "foo\nfoo foo\nbar\n", "b.ts": "foo\n" });
    const r = await s.call("Grep", { pattern: "foo", output_mode: "count" });
    expect(r.content).toBe("a.ts:2\nb.ts:1\n\nFound 3 matching lines in 2 files.");
  });

  it("shows a wide content search's lines alike once, with a count, and the line unlike them", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 400; i++) files[`pkg/p${String(i).padStart(3, "0")}.js`] = `export const on = flag("p${i}.on");\n`;
    files["pkg/p200.js"] += "export function flag(name) {\n";
    const r = await project(files).call("Grep", { pattern: "flag\\(", output_mode: "content" });
    expect(r.content.split("\n")).toEqual([
      'pkg/p000.js:1:export const on = flag("p0.on");',
      "[… 399 more like it, numbers aside, in 399 files: pkg/p001.js … pkg/p399.js]",
      "pkg/p200.js:2:export function flag(name) {",
      "(401 matching lines; repeats and long runs are summed up above. Narrow the search, or pass head_limit to list them as they are.)",
    ]);
  });

  it("shows at most 20 lines of one file in a wide search, then how many more", async () => {
    const letter = (n: number) => "abcdefghijklmnopqrstuvwxyz"[n % 26];
    const lines = Array.from({ length: 300 }, (_, i) => `hit ${letter(Math.floor(i / 26))}${letter(i)} here`); // no two alike
    const r = await project({ "big.txt": `${lines.join("\n")}\n`, "small.txt": "hit once\n" }).call("Grep", { pattern: "hit", output_mode: "content" });
    const out = r.content.split("\n");
    expect(out.filter((l) => l.startsWith("big.txt:"))).toHaveLength(20);
    expect(out).toContain("[… 280 more in big.txt]");
    expect(out).toContain("small.txt:1:hit once");
  });

  it("lists every line as it is when head_limit asks for them", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 300; i++) files[`p${String(i).padStart(3, "0")}.js`] = `flag(${i});\n`;
    const r = await project(files).call("Grep", { pattern: "flag", output_mode: "content", head_limit: 0 });
    expect(r.content.split("\n")).toHaveLength(300);
  });

  it("keeps the first head_limit entries and says how many there were", async () => {
    const s = project({ "a.txt": "x\n", "b.txt": "x\n", "c.txt": "x\n" });
    const r = await s.call("Grep", { pattern: "x", head_limit: 2 });
    expect(r.content).toBe("Found 3 files\na.txt\nb.txt\n(Showing the first 2 of 3 files. Narrow the search, or raise head_limit.)");
  });

  it("says so when nothing matches", async () => {
    const s = project({ "a.txt": "x\n" });
    expect((await s.call("Grep", { pattern: "zzz" })).content).toBe("No files found");
    expect((await s.call("Grep", { pattern: "zzz", output_mode: "content" })).content).toBe("No matches found");
  });

  it("filters by type with rg's type names", async () => {
    const s = project({ "a.py": "x\n", "b.rs": "x\n", "c.go": "x\n" });
    expect((await s.call("Grep", { pattern: "x", type: "rust" })).content).toBe("Found 1 file\nb.rs");
    expect((await s.call("Grep", { pattern: "x", type: "python" })).content).toBe("Found 1 file\na.py");
  });

  it("refuses an unknown type, listing the known ones", async () => {
    const s = project({ "a.txt": "x\n" });
    const r = await s.call("Grep", { pattern: "x", type: "cobol" });
    expect(r.isError).toBe(true);
    expect(r.content).toContain('Unknown type "cobol"');
    expect(r.content).toContain("rust");
  });

  it("refuses a pattern that is not valid ripgrep syntax", async () => {
    const s = project({ "a.txt": "x\n" });
    const r = await s.call("Grep", { pattern: "foo(" });
    expect(r.isError).toBe(true);
    expect(r.content).toMatch(/Invalid pattern|Grep failed/);
  });

  it("names a path that does not exist", async () => {
    const s = project({});
    expect(await s.call("Grep", { pattern: "x", path: "nope" })).toMatchObject({ isError: true, content: "Path does not exist: nope" });
  });

  it("shows absolute paths for a folder outside the project", async () => {
    const s = project({});
    const outside = tempDir();
    writeTree(outside, { "o.txt": "needle\n" });
    const r = await s.call("Grep", { pattern: "needle", path: outside, output_mode: "content" });
    expect(r.content).toBe(`${outside}/o.txt:1:needle`);
  });

  it("cuts very long lines, keeping their start", async () => {
    const s = project({ "min.js": `${"a".repeat(3000)}needle\n` });
    const r = await s.call("Grep", { pattern: "needle", output_mode: "content" });
    expect(r.content.length).toBeLessThan(1100);
    expect(r.content).toContain("[line cut: 3015 characters]");
  });
});

describe("Grep's built-in search", () => {
  it("stops when the call is aborted", async () => {
    const s = session({ rgPath: null });
    writeTree(s.root, { "a.txt": "x\n" });
    const ac = new AbortController();
    ac.abort();
    expect(await s.call("Grep", { pattern: "x" }, ac.signal)).toMatchObject({ isError: true, content: "Grep was interrupted." });
  });
});
