// Tool results as compact as the most compact peer's (issue 41): each kind's framing — what a
// result adds around the facts it carries — counted in DeepSeek V3 tokens on results the real
// CLI sends back. Every result is a cache miss once and a hit in every later request, so a word
// of framing costs in every request after it. The ceilings are what pi 0.73.1 adds for the same
// call on the peers bench's short session, or deepcode's own figure where that is smaller. Run
// `npx tsc -p tsconfig.json` first: this starts dist/.
import { afterEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { startSimulator, type Simulator } from "../sim/server.mjs";
import { countTokens } from "../sim/tokens.mjs";
import { cliEnv, type CliEnv } from "../helpers/cli-env.js";
import { chatBodies } from "../helpers/extension.js";
import { call, runBin } from "./helpers.js";

let sim: Simulator | undefined;
let env: CliEnv | undefined;
afterEach(async () => {
  await sim?.close();
  env?.cleanup();
  sim = env = undefined;
});

const MODULE = Array.from({ length: 40 }, (_, i) => (i % 7 === 3 ? "" : `export const value${i} = ${i} * 2; // line ${i + 1}`)).join("\n") + "\n";
const TESTS = "for i in $(seq 1 200); do echo \"ok $i - case $i\"; done; echo '# 200 tests, 200 passed, 0 failed'";

/** Runs one `-p` session making `calls` in order; returns each call's result as the model got it. */
async function results(calls: Array<[string, object]>): Promise<string[]> {
  sim = await startSimulator({ script: { replies: [...calls.map(([name, args]) => call(name, args)), { content: "Done." }] }, apiKey: "sk-test-cli" });
  env = cliEnv(sim.url, { "src/values.js": MODULE, ".deepcode/settings.json": JSON.stringify({ permissions: { allow: ["Bash", "Edit", "Write"] } }) });
  spawnSync("git", ["init", "-q"], { cwd: env.root });
  const r = await runBin(["-p", "go", "--output-format", "json", "--trust-project"], { cwd: env.root, env: env.env });
  expect(r.code, r.stderr).toBe(0);
  const last = chatBodies(sim.requests).pop() as { messages: Array<{ role: string; content: string }> };
  return last.messages.filter((m) => m.role === "tool").map((m) => m.content);
}

describe("each kind of tool result carries its facts with little framing", () => {
  it("Read numbers the lines and adds nothing else to a whole file; Edit and Write confirm in one short line", async () => {
    const [read, edit, write] = await results([
      ["Read", { file_path: "src/values.js" }],
      ["Edit", { file_path: "src/values.js", old_string: "value1 = 1 * 2", new_string: "value1 = 1 * 3" }],
      ["Write", { file_path: "CHANGES.md", content: "# Changes\n\n- value1 triples.\n" }],
    ]);
    const lines = MODULE.trimEnd().split("\n");
    expect(read).toBe(lines.map((l, i) => `${i + 1}\t${l}`).join("\n"));
    // The numbers are the one addition, two tokens a line at most (the number and the tab): the
    // fact a person and the model cite lines by. pi sends the text alone, without them.
    expect(countTokens(read) - countTokens(MODULE)).toBeLessThanOrEqual(2 * lines.length);
    expect(edit).toContain("src/values.js");
    expect(edit).toMatch(/line 2\b/);
    expect(countTokens(edit)).toBeLessThanOrEqual(16); // pi: "Successfully replaced 1 block(s) in src/values.js." (14)
    expect(write).toContain("CHANGES.md");
    expect(countTokens(write)).toBeLessThanOrEqual(16);
  });

  it("Bash sends a short output as it is, and a long one's kept copy in a last line of a few words and the path", async () => {
    const [short, long] = await results([
      ["Bash", { command: "echo hello; echo world" }],
      ["Bash", { command: TESTS }],
    ]);
    expect(short).toBe("hello\nworld");
    const last = long.split("\n").at(-1) ?? "";
    const path = /Read (\S+)\]$/.exec(last)?.[1];
    expect(path, long).toBeDefined();
    expect(long).toContain("# 200 tests, 200 passed, 0 failed");
    expect(long).toContain("200 passing lines");
    // Framing of the kept copy, beside its path: "[all 201 lines: Read …]".
    expect(countTokens(last.replace(path!, "")), last).toBeLessThanOrEqual(9);
    expect(countTokens(long.replace(path!, "")), long).toBeLessThanOrEqual(40);
  });

  it("Grep's content lines and Glob's paths come with no header or footer", async () => {
    const [grep, glob] = await results([
      ["Grep", { pattern: "value1[0-9]? =", output_mode: "content" }],
      ["Glob", { pattern: "src/**/*.js" }],
    ]);
    expect(grep.split("\n")).toEqual(MODULE.split("\n").flatMap((l, i) => (/value1[0-9]? =/.test(l) ? [`src/values.js:${i + 1}:${l}`] : [])));
    expect(glob).toBe("src/values.js");
  });
});
