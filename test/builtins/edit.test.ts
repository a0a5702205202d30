import { describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { session, writeTree, type Session } from "./helpers.js";

/** A session with one file that has been read. */
async function withFile(content: string | Buffer, name = "a.ts"): Promise<{ s: Session; path: string; text: () => string; bytes: () => Buffer }> {
  const s = session();
  writeTree(s.root, { [name]: content });
  await s.call("Read", { file_path: name });
  const path = join(s.root, name);
  return { s, path, text: () => readFileSync(path, "utf8"), bytes: () => readFileSync(path) };
}

describe("Edit replaces exactly the text the model names", () => {
  it("replaces a unique exact match and reports a diff with +/− counts", async () => {
    const { s, text } = await withFile("function f() {\n  return 1;\n}\n");
    const r = await s.call("Edit", { file_path: "a.ts", old_string: "  return 1;", new_string: "  const x = 1;\n  return x;" });
    expect(r.isError).toBeFalsy();
    expect(text()).toBe("function f() {\n  const x = 1;\n  return x;\n}\n");
    expect(r.summary).toBe("Edit a.ts +2 −1");
    expect(r.meta).toMatchObject({ added: 2, removed: 1, replacements: 1, match: "exact" });
    expect(r.meta!.diff).toBe("--- a/a.ts\n+++ b/a.ts\n@@ -1,3 +1,4 @@\n function f() {\n-  return 1;\n+  const x = 1;\n+  return x;\n }");
    // An exact match is confirmed in one line: what changed and where, not the lines again.
    expect(r.content).toBe("Edited a.ts at lines 2–3 (+2 −1).");
  });

  it("shows the region as it now reads when the match was found by a normalising pass", async () => {
    const { s, text } = await withFile("function f() {\n    return 1;\n}\n");
    const r = await s.call("Edit", { file_path: "a.ts", old_string: "function f() {\n  return 1;", new_string: "function f() {\n  return 2;" });
    expect(text()).toBe("function f() {\n  return 2;\n}\n");
    expect(r.content).toBe("Edited a.ts at lines 1–2 (+1 −1). old_string matched ignoring indentation; the file around the change now reads:\n1\tfunction f() {\n2\t  return 2;\n3\t}");
  });

  it("refuses several exact matches without replace_all, listing where they are", async () => {
    const { s, text } = await withFile("a();\nb();\na();\n");
    const r = await s.call("Edit", { file_path: "a.ts", old_string: "a();", new_string: "c();" });
    expect(r.isError).toBe(true);
    expect(r.content).toContain("occurs 2 times");
    expect(r.content).toContain("line 1: a();");
    expect(r.content).toContain("line 3: a();");
    expect(r.content).toContain("replace_all");
    expect(text()).toBe("a();\nb();\na();\n");
  });

  it("replaces every occurrence with replace_all", async () => {
    const { s, text } = await withFile("foo bar foo\nfoo\n");
    const r = await s.call("Edit", { file_path: "a.ts", old_string: "foo", new_string: "baz", replace_all: true });
    expect(r.isError).toBeFalsy();
    expect(text()).toBe("baz bar baz\nbaz\n");
    expect(r.content).toBe("Edited a.ts at 3 places (lines 1, 2) (+2 −2).");
  });

  it("works twice in a row without a Read in between", async () => {
    const { s, text } = await withFile("one\ntwo\nthree\n");
    const a = await s.call("Edit", { file_path: "a.ts", old_string: "one", new_string: "1" });
    const b = await s.call("Edit", { file_path: "a.ts", old_string: "three", new_string: "3" });
    expect(a.isError).toBeFalsy();
    expect(b.isError).toBeFalsy();
    expect(text()).toBe("1\ntwo\n3\n");
  });

  it("refuses a file that changed since it was read, and says to Read it again", async () => {
    const { s, path, text } = await withFile("const a = 1;\n");
    writeFileSync(path, "const a = 2;\n");
    const r = await s.call("Edit", { file_path: "a.ts", old_string: "const a = 2;", new_string: "const a = 3;" });
    expect(r.isError).toBe(true);
    expect(r.content).toContain("has changed since it was last read");
    expect(r.content).toContain("Read it again");
    expect(text()).toBe("const a = 2;\n");
  });

  it("refuses a file that was never read", async () => {
    const s = session();
    writeTree(s.root, { "a.ts": "x\n" });
    const r = await s.call("Edit", { file_path: "a.ts", old_string: "x", new_string: "y" });
    expect(r.isError).toBe(true);
    expect(r.content).toContain("has not been read in this session");
  });

  it("refuses an old_string equal to new_string", async () => {
    const { s } = await withFile("x\n");
    const r = await s.call("Edit", { file_path: "a.ts", old_string: "x", new_string: "x" });
    expect(r).toMatchObject({ isError: true });
    expect(r.content).toContain("the same");
  });

  it("keeps a CRLF file CRLF, also in the lines it inserts", async () => {
    const { s, bytes } = await withFile("line one\r\nline two\r\nline three\r\n");
    const r = await s.call("Edit", { file_path: "a.ts", old_string: "line one\nline two", new_string: "line 1\nline 1.5\nline 2" });
    expect(r.isError).toBeFalsy();
    expect(bytes().toString()).toBe("line 1\r\nline 1.5\r\nline 2\r\nline three\r\n");
  });

  it("keeps a UTF-8 byte-order mark", async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const { s, bytes } = await withFile(Buffer.concat([bom, Buffer.from("héllo\n")]));
    await s.call("Edit", { file_path: "a.ts", old_string: "héllo", new_string: "wörld" });
    expect(bytes()).toEqual(Buffer.concat([bom, Buffer.from("wörld\n")]));
  });

  it("keeps a Latin-1 file Latin-1", async () => {
    const { s, bytes } = await withFile(Buffer.from("caf\xe9 au lait\n", "latin1"));
    const r = await s.call("Edit", { file_path: "a.ts", old_string: "au lait", new_string: "cr\xe8me" });
    expect(r.isError).toBeFalsy();
    expect(bytes()).toEqual(Buffer.from("caf\xe9 cr\xe8me\n", "latin1"));
  });

  it("shows the closest lines when old_string is not in the file", async () => {
    const { s } = await withFile("function add(a, b) {\n  return a + b;\n}\n");
    const r = await s.call("Edit", { file_path: "a.ts", old_string: "function add(x, y) {", new_string: "function sum(x, y) {" });
    expect(r.isError).toBe(true);
    expect(r.content).toContain("was not found");
    expect(r.content).toContain("1\tfunction add(a, b) {");
  });

  it("creates a missing file when old_string is empty", async () => {
    const s = session();
    const r = await s.call("Edit", { file_path: "new.txt", old_string: "", new_string: "hi\n" });
    expect(r.isError).toBeFalsy();
    expect(readFileSync(join(s.root, "new.txt"), "utf8")).toBe("hi\n");
  });
});

describe("Edit tolerates small differences only when they leave one candidate", () => {
  it("matches despite trailing whitespace in the file", async () => {
    const { s, text } = await withFile("let a = 1;   \nlet b = 2;\n");
    const r = await s.call("Edit", { file_path: "a.ts", old_string: "let a = 1;\nlet b = 2;", new_string: "let a = 10;\nlet b = 20;" });
    expect(r.isError).toBeFalsy();
    expect(r.meta!.match).toBe("trailing-whitespace");
    expect(text()).toBe("let a = 10;\nlet b = 20;\n");
  });

  it("matches when only the indentation differs, and indents the replacement like the file", async () => {
    const { s, text } = await withFile("class A {\n    run() {\n        go();\n    }\n}\n");
    const r = await s.call("Edit", { file_path: "a.ts", old_string: "run() {\n    go();\n}", new_string: "run() {\n    go();\n    stop();\n}" });
    expect(r.isError).toBeFalsy();
    expect(r.content).toContain("ignoring indentation");
    expect(text()).toBe("class A {\n    run() {\n        go();\n        stop();\n    }\n}\n");
  });

  it("matches straight quotes against typographic ones and keeps the file's quote style", async () => {
    const { s, text } = await withFile("He said “hello” and left.\n", "a.md");
    const r = await s.call("Edit", { file_path: "a.md", old_string: 'said "hello"', new_string: 'said "goodbye"' });
    expect(r.isError).toBeFalsy();
    expect(r.meta!.match).toBe("quotes");
    expect(text()).toBe("He said “goodbye” and left.\n");
  });

  it("matches typographic quotes in old_string against straight ones in the file", async () => {
    const { s, text } = await withFile("const s = 'it';\n");
    const r = await s.call("Edit", { file_path: "a.ts", old_string: "const s = ‘it’;", new_string: "const s = ‘that’;" });
    expect(r.isError).toBeFalsy();
    expect(text()).toBe("const s = 'that';\n");
  });

  it("unescapes \\n written literally in old_string and new_string", async () => {
    const { s, text } = await withFile("a\nb\n");
    const r = await s.call("Edit", { file_path: "a.ts", old_string: "a\\nb", new_string: "A\\nB" });
    expect(r.isError).toBeFalsy();
    expect(r.meta!.match).toBe("escapes");
    expect(text()).toBe("A\nB\n");
  });

  it("matches across differing runs of whitespace", async () => {
    const { s, text } = await withFile("if (a  &&\tb) { go(); }\n");
    const r = await s.call("Edit", { file_path: "a.ts", old_string: "if (a && b) {", new_string: "if (a || b) {" });
    expect(r.isError).toBeFalsy();
    expect(r.meta!.match).toBe("whitespace");
    expect(text()).toBe("if (a || b) { go(); }\n");
  });

  it("refuses an ambiguous fuzzy match and lists the candidates instead of guessing", async () => {
    const before = "if (a) {\n    run(x);\n}\nif (b) {\n        run(x);\n}\n";
    const { s, text } = await withFile(before);
    const r = await s.call("Edit", { file_path: "a.ts", old_string: "\trun(x);\n}", new_string: "\trun(y);\n}" });
    expect(r.isError).toBe(true);
    expect(r.content).toContain("not found exactly");
    expect(r.content).toContain("ignoring indentation it matches 2 places");
    expect(r.content).toContain("line 2: run(x);");
    expect(r.content).toContain("line 5: run(x);");
    expect(text()).toBe(before);
  });
});
