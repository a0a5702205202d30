import { describe, expect, it } from "vitest";
import { diffLines, unifiedDiff } from "../../src/builtins/line-diff.js";

describe("the line diff", () => {
  it("finds a shortest edit script", () => {
    const ops = diffLines("a b c a b b a".split(" "), "c b a b a c".split(" "));
    expect(ops.filter((o) => o.kind !== "eq")).toHaveLength(5);
    expect(ops.filter((o) => o.kind !== "ins").map((o) => o.line)).toEqual("a b c a b b a".split(" "));
    expect(ops.filter((o) => o.kind !== "del").map((o) => o.line)).toEqual("c b a b a c".split(" "));
  });

  it("renders separate hunks for changes far apart, with three lines of context", () => {
    const a = Array.from({ length: 20 }, (_, i) => `l${i + 1}`).join("\n") + "\n";
    const b = a.replace("l2\n", "L2\n").replace("l19\n", "L19\n");
    const d = unifiedDiff(a, b, "f.txt");
    expect(d.diff.split("\n").filter((l) => l.startsWith("@@"))).toEqual(["@@ -1,5 +1,5 @@", "@@ -16,5 +16,5 @@"]);
    expect(d).toMatchObject({ added: 2, removed: 2, firstChangedLine: 2 });
  });

  it("describes a new file from /dev/null, an existing empty file from a/ and an emptied one", () => {
    expect(unifiedDiff("", "x\ny\n", "n", 3, true).diff).toBe("--- /dev/null\n+++ b/n\n@@ -0,0 +1,2 @@\n+x\n+y");
    expect(unifiedDiff("", "x\n", "n").diff).toBe("--- a/n\n+++ b/n\n@@ -0,0 +1,1 @@\n+x");
    expect(unifiedDiff("x\n", "", "n").diff).toBe("--- a/n\n+++ b/n\n@@ -1,1 +0,0 @@\n-x");
  });

  it("is empty when nothing changed", () => {
    expect(unifiedDiff("same\n", "same\n", "n")).toMatchObject({ diff: "", added: 0, removed: 0 });
  });
});
