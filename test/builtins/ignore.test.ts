import { describe, expect, it } from "vitest";
import { gitignoreVerdict, parseGitignore } from "../../src/lib/gitignore.js";

const check = (rules: string, path: string, isDir = false) => gitignoreVerdict([parseGitignore("/r", rules)], `/r/${path}`, isDir);

describe(".gitignore rules", () => {
  it("match a name at any depth when the pattern has no slash", () => {
    expect(check("*.log", "a.log")).toBe("ignore");
    expect(check("*.log", "deep/er/a.log")).toBe("ignore");
    expect(check("*.log", "a.txt")).toBe(null);
  });

  it("are anchored to their folder when the pattern has a slash at the start or in the middle", () => {
    expect(check("/build", "build", true)).toBe("ignore");
    expect(check("/build", "src/build", true)).toBe(null);
    expect(check("docs/*.tmp", "docs/a.tmp")).toBe("ignore");
    expect(check("docs/*.tmp", "docs/sub/a.tmp")).toBe(null);
    expect(check("docs/*.tmp", "x/docs/a.tmp")).toBe(null);
  });

  it("match folders only when the pattern ends with a slash", () => {
    expect(check("out/", "out", true)).toBe("ignore");
    expect(check("out/", "out", false)).toBe(null);
  });

  it("re-include with ! when a later rule says so", () => {
    expect(check("*.log\n!keep.log", "keep.log")).toBe("keep");
    expect(check("!keep.log\n*.log", "keep.log")).toBe("ignore");
  });

  it("skip comments and blank lines, honour escapes and drop trailing spaces", () => {
    expect(check("# note\n\n\\#hash  ", "#hash")).toBe("ignore");
    expect(check("# note", "# note")).toBe(null);
    expect(check("\\!bang", "!bang")).toBe("ignore");
  });

  it("let ** span folders", () => {
    expect(check("a/**/z", "a/b/c/z")).toBe("ignore");
    expect(check("**/gen", "x/y/gen", true)).toBe("ignore");
    expect(check("lib/**", "lib/x/y.js")).toBe("ignore");
  });

  it("let a deeper .gitignore decide over a shallower one", () => {
    const root = parseGitignore("/r", "*.log");
    const deep = parseGitignore("/r/src", "!important.log");
    expect(gitignoreVerdict([root, deep], "/r/src/important.log", false)).toBe("keep");
    expect(gitignoreVerdict([root, deep], "/r/src/other.log", false)).toBe("ignore");
  });
});
