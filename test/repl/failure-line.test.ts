// A failed command's line says why (issue 39): `✗ Bash npm test → exit 1 (…): <the failing test
// and its assertion>`, not npm's `> tinyshop@1.0.0 test` banner — read from a real npm test run
// (node --test) in a real terminal.
import { describe, expect, it } from "vitest";
import { enter, useRepl } from "./helpers.js";

const repl = useRepl();

const PROJECT = {
  "package.json": JSON.stringify({ name: "tinyshop", version: "1.0.0", scripts: { test: "node --test" } }),
  "cart.test.js": [
    "const test = require('node:test');",
    "const assert = require('node:assert');",
    "test('adds items', () => assert.strictEqual(1 + 1, 2));",
    "test('applies the discount', () => assert.strictEqual(90, 85));",
    "",
  ].join("\n"),
};

describe("a failed command's line", () => {
  it("names the failing test and its assertion, not npm's banner", async () => {
    const t = await repl.open({ replies: [{ tool_calls: [{ name: "Bash", arguments: { command: "npm test" } }] }, { content: "one test fails" }] }, PROJECT, { args: '--allowedTools "Bash"' });
    enter(t, "run the tests");
    const s = await t.waitFor(/^one test fails$/m);
    const line = s.split("\n").find((l) => l.startsWith("✗ Bash npm test")) ?? "";
    expect(line, s).toMatch(/^✗ Bash npm test → exit 1 \(\d+\.\d s\): applies the discount: Expected values to be strictly equal: 90 !== 85/);
    expect(line).not.toContain("tinyshop@1.0.0");
  });
});
