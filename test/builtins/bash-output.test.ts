// What the model sees of a long command output (src/builtins/bash-output.ts): the passing lines
// of the test runners people use are counted, and everything else is left where it was.
import { describe, expect, it } from "vitest";
import { condense } from "../../src/builtins/bash-output.js";

const many = (n: number, line: (i: number) => string) => Array.from({ length: n }, (_, i) => line(i + 1));

describe("a test run's passing lines are counted, its failures shown", () => {
  const runners: Record<string, { pass: (i: number) => string; fail: string[]; summary: string }> = {
    "node --test (TAP)": { pass: (i) => `ok ${i} - case ${i}`, fail: ["not ok 41 - adds", "  ---", "  error: 'expected 2'"], summary: "# pass 79" },
    vitest: { pass: (i) => ` ✓ test/a${i}.test.ts (3 tests) 12ms`, fail: [" ❯ test/b.test.ts (1 test | 1 failed)", "   × adds 5ms"], summary: " Tests  1 failed | 79 passed (80)" },
    "go test -v": { pass: (i) => (i % 2 ? `=== RUN   TestCase${i}` : `--- PASS: TestCase${i} (0.00s)`), fail: ["--- FAIL: TestAdd (0.00s)", "    add_test.go:9: got 3, want 2"], summary: "FAIL\texample.com/m\t0.01s" },
    "cargo test": { pass: (i) => `test tests::case_${i} ... ok`, fail: ["test tests::adds ... FAILED"], summary: "test result: FAILED. 79 passed; 1 failed" },
    "pytest -v": { pass: (i) => `tests/test_a.py::test_case_${i} PASSED [ ${i}%]`, fail: ["tests/test_a.py::test_add FAILED [ 50%]"], summary: "==== 1 failed, 79 passed in 0.12s ====" },
  };
  for (const [name, r] of Object.entries(runners)) {
    it(`for ${name}`, () => {
      const body = [...many(40, r.pass), ...r.fail, ...many(40, (i) => r.pass(i + 40)), r.summary].join("\n");
      const c = condense(body, 10_000);
      expect(c.text.split("\n")).toEqual(["[… 40 passing lines …]", ...r.fail, "[… 40 passing lines …]", r.summary]);
      expect(c.omitted).toBe(80);
    });
  }
});

describe("output that is not a test run", () => {
  it("is shown whole while it fits", () => {
    const body = many(200, (i) => `src/file${i}.ts | 3 ++-`).join("\n");
    expect(condense(body, 10_000)).toEqual({ text: body, omitted: 0, shortened: 0 });
  });

  it("keeps its start, its end and the lines that say something went wrong, marking each gap", () => {
    const body = [...many(3000, (i) => `compiling unit ${i}`), "error[E0308]: mismatched types", "  --> src/main.rs:4:5", ...many(3000, (i) => `linking unit ${i}`)].join("\n");
    const c = condense(body, 10_000);
    expect(c.text.length).toBeLessThanOrEqual(10_000);
    expect(c.text.startsWith("compiling unit 1\ncompiling unit 2\n")).toBe(true);
    expect(c.text.endsWith("linking unit 2999\nlinking unit 3000")).toBe(true);
    expect(c.text).toMatch(/\[… [\d,]+ lines …\]\ncompiling unit 3000\nerror\[E0308\]: mismatched types\n {2}--> src\/main\.rs:4:5\nlinking unit 1\nlinking unit 2\n\[… [\d,]+ lines …\]/);
  });

  it("keeps the start of a line too long to show (minified code, one-line JSON)", () => {
    const c = condense(`{"data":"${"x".repeat(50_000)}"}`, 10_000);
    expect(c.text.startsWith('{"data":"xxx')).toBe(true);
    expect(c.text.endsWith("… [line cut: 50,011 characters]")).toBe(true);
    expect(c).toMatchObject({ omitted: 0, shortened: 1 });
  });
});
