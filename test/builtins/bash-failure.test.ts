// The reason on a failed command's line (src/builtins/bash-failure.ts), read from real output of
// the runners people use (test/fixtures/failures: node --test in TAP and spec, vitest, tsc,
// eslint, go test, pytest, cargo test and make captured from the tools themselves; jest, a node
// crash and a Python traceback written as those tools print them): the failing test's name and
// its assertion, or the error — never npm's `> pkg@1.0.0 test` banner.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { failureReason, REASON_MAX } from "../../src/builtins/bash-failure.js";

const fixture = (name: string): string => readFileSync(join(import.meta.dirname, "../fixtures/failures", name), "utf8");
const reads = (name: string, reason: string): void => expect(failureReason(fixture(name))).toBe(reason);

describe("a failed run's line names the failing test and its assertion", () => {
  it.each([
    ["npm-node-test-tap.txt", "applies the discount: Expected values to be strictly equal: 90 !== 85"],
    ["npm-node-test-spec.txt", "applies the discount: Expected values to be strictly equal: 90 !== 85"],
    ["npm-vitest.txt", "sum.test.ts > cart > applies the discount: AssertionError: expected 90 to be 85"],
    ["npm-jest.txt", "cart › applies the discount: expect(received).toBe(expected) — Expected: 85, Received: 90"],
    ["pytest.txt", "test_cart.py::test_discount - assert 90 == 85"],
    ["go-test.txt", "TestDiscount: cart_test.go:4: Discount(100) = 90, want 85"],
    ["cargo-test.txt", "tests::applies_discount: assertion `left == right` failed, left: 90, right: 85"],
  ])("%s", reads);
});

describe("a failed build or check's line names the error", () => {
  it.each([
    ["npm-tsc.txt", "a.ts(1,7): error TS2322: Type 'string' is not assignable to type 'number'. (and 1 more)"],
    ["eslint.txt", "/home/ada/tinyshop/src/b.js:1:7 'x' is assigned a value but never used (no-unused-vars)"],
    ["make.txt", "cc1: fatal error: missing.c: No such file or directory"],
    ["node-crash.txt", "Error: Cannot find module 'express'"],
    ["python-traceback.txt", "ZeroDivisionError: division by zero"],
  ])("%s", reads);
});

describe("anything else", () => {
  it("gives the last line that is not noise, never npm's banner", () => {
    expect(failureReason(fixture("npm-script-plain.txt"))).toBe("stock.csv: 3 rows have no SKU");
    expect(failureReason("\n> tinyshop@1.0.0 test\n> ./run.sh\n\n")).toBeUndefined();
  });

  it("reads through colour codes and cuts a long reason to one line", () => {
    expect(failureReason("\x1b[31mError: \x1b[1mport 3000 is in use\x1b[0m\n")).toBe("Error: port 3000 is in use");
    const long = failureReason(`Error: ${"x".repeat(400)}`)!;
    expect(long.length).toBe(REASON_MAX);
    expect(long.endsWith("…")).toBe(true);
  });
});
