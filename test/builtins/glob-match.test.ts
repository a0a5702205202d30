import { describe, expect, it } from "vitest";
import { globMatch } from "../../src/lib/glob-match.js";

const cases: Array<[string, string, boolean]> = [
  ["*.ts", "a.ts", true],
  ["*.ts", "src/a.ts", false],
  ["src/*", "src/a.ts", true],
  ["src/*", "src/x/a.ts", false],
  ["src/**", "src/x/y/a.ts", true],
  ["src/**", "src", false],
  ["**/*.ts", "a.ts", true],
  ["**/*.ts", "deep/er/a.ts", true],
  ["src/**/test/*.ts", "src/test/a.ts", true],
  ["src/**/test/*.ts", "src/a/b/test/a.ts", true],
  ["*.{ts,tsx}", "a.tsx", true],
  ["*.{ts,tsx}", "a.js", false],
  ["{src,lib}/**/*.{js,mjs}", "lib/x/y.mjs", true],
  ["?.md", "a.md", true],
  ["?.md", "ab.md", false],
  ["[ab].txt", "b.txt", true],
  ["[!ab].txt", "b.txt", false],
  ["[!ab].txt", "c.txt", true],
  ["a\\*b", "a*b", true],
  ["a\\*b", "axb", false],
  [".env*", ".env.local", true],
  ["file.txt", "file.txt", true],
  ["file.txt", "filextxt", false],
  ["/etc/**", "/etc/passwd", true],
  ["/home/u/.ssh/**", "/home/u/.ssh/id_rsa", true],
];

describe("glob patterns match paths gitignore-style", () => {
  for (const [pattern, path, expected] of cases) {
    it(`${expected ? "matches" : "does not match"} ${path} with ${pattern}`, () => {
      expect(globMatch(pattern, path)).toBe(expected);
    });
  }
  it("skips dotfiles with * only when asked to", () => {
    expect(globMatch("*", ".hidden", { dot: false })).toBe(false);
    expect(globMatch("**/*.js", "a/.cache/x.js", { dot: false })).toBe(false);
    expect(globMatch("*", ".hidden")).toBe(true);
  });
  it("matches case-insensitively when asked", () => {
    expect(globMatch("*.TS", "a.ts", { nocase: true })).toBe(true);
    expect(globMatch("*.TS", "a.ts")).toBe(false);
  });
});
