import { describe, expect, it } from "vitest";
import { requiredLiteral } from "../../src/builtins/grep-literal.js";
import { GrepPatternError, translateRegex } from "../../src/builtins/grep-regex.js";

const line = (p: string, flags: Partial<{ multiline: boolean; ignoreCase: boolean }> = {}) => {
  const t = translateRegex(p, { multiline: false, ignoreCase: false, ...flags });
  return new RegExp(t.source, t.flags);
};
const matches = (p: string, s: string, flags = {}) => line(p, flags).test(s);

describe("ripgrep patterns are translated to JavaScript with rg's meaning", () => {
  it("takes a leading (?i) as case-insensitivity", () => {
    expect(matches("(?i)hello", "HeLLo")).toBe(true);
    expect(matches("hello", "HeLLo")).toBe(false);
  });

  it("treats \\A and \\z as the start and end of the text (a line, when not multiline)", () => {
    expect(matches("\\Afoo", "foo bar")).toBe(true);
    expect(matches("\\Afoo", "a foo")).toBe(false);
    expect(line("\\Ab", { multiline: true }).test("a\nb")).toBe(false);
    expect(line("a\\z", { multiline: true }).test("a\nb")).toBe(false);
  });

  it("lets . match a carriage return but never a newline unless multiline", () => {
    expect(matches("one.$", "one\r")).toBe(true);
    expect(() => line("a\\nb")).toThrow(GrepPatternError);
    expect(line("a.b", { multiline: true }).test("a\nb")).toBe(true);
  });

  it("makes ^ and $ line anchors in multiline mode that ignore a lone \\r", () => {
    expect(line("^b$", { multiline: true }).test("a\nb\nc")).toBe(true);
    expect(line("a$", { multiline: true }).test("a\r\nb")).toBe(false);
  });

  it("understands escaped punctuation, POSIX classes, \\x{…}, \\pL and named groups", () => {
    expect(matches("a\\-b\\#c", "a-b#c")).toBe(true);
    expect(matches("[[:digit:]]+x", "42x")).toBe(true);
    expect(matches("\\x{41}\\x42", "AB")).toBe(true);
    expect(matches("\\pL+", "日本")).toBe(true);
    expect(matches("\\p{Greek}", "λ")).toBe(true);
    expect(matches("(?P<word>\\w+)", "hi")).toBe(true);
  });

  it("makes \\w and \\d Unicode-aware, as in Rust", () => {
    expect(matches("^\\w+$", "naïve")).toBe(true);
    expect(matches("^\\d$", "٣")).toBe(true);
  });

  it("refuses what ripgrep's engine does not have, saying why", () => {
    expect(() => line("foo(?=bar)")).toThrow(/look-around/);
    expect(() => line("(a)\\1")).toThrow(/back-references/);
    expect(() => line("interface{}")).toThrow(/must be escaped/);
    expect(() => line("a(?i)b")).toThrow(/only at the very start/);
    expect(() => line("[a-z&&[^aeiou]]")).toThrow(/not supported/);
  });

  it("accepts escaped braces and literal closing brackets", () => {
    expect(matches("interface\\{\\}", "interface{}")).toBe(true);
    expect(matches("a]b}", "a]b}")).toBe(true);
  });
});

describe("the literal every match must contain", () => {
  it("is the longest certain run of plain characters", () => {
    expect(requiredLiteral("deprecated")).toBe("deprecated");
    expect(requiredLiteral("function\\s+[a-z]+\\(")).toBe("function");
    expect(requiredLiteral("foo\\.bar(baz)?qux")).toBe("foo.bar");
    expect(requiredLiteral("abcd?ef")).toBe("abc");
    expect(requiredLiteral("x{0,2}yz[abc]+longer")).toBe("longer");
  });

  it("is unknown when the pattern could match without one", () => {
    expect(requiredLiteral("foo|bar")).toBe(null);
    expect(requiredLiteral("(?i)foo")).toBe(null);
    expect(requiredLiteral("ab")).toBe(null);
    expect(requiredLiteral("\\x{41}BCD")).toBe(null);
    expect(requiredLiteral("(abc)*")).toBe(null);
  });
});
