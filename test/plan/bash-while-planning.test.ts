// While planning, a shell command runs only when every part of it only reads. Tested as its
// attacker would: with a bare `Bash` allow (every command allowed outside plan mode), real
// bash runs what the gate lets through, and nothing on disk may change.
import { afterEach, describe, expect, it } from "vitest";
import { chmodSync, existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cliRig, type CliRig } from "../e2e/helpers.js";
import { chatBodies } from "../helpers/extension.js";

let rig: CliRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const READS = ["ls", "cat a.txt", "grep -n hello a.txt", "head -1 a.txt | wc -l", "find . -name '*.txt'", "sed -n 1p a.txt", "sort a.txt", "diff a.txt list", "git status --short"];

const WRITES = [
  "echo x > out1",
  "cat a.txt > out2",
  "tee out3 < a.txt",
  "touch out4",
  "sed -i s/hello/bye/ a.txt",
  "sort -o out5 a.txt",
  "find . -name a.txt -delete",
  "bash -c 'echo x > out6'",
  "ls $(touch out7)",
  "ls; rm a.txt",
  "git diff --output=out8",
  "sed 'w out9' a.txt",
  "xargs rm < list",
  "env touch out10",
  "cd sub && touch out11",
  "awk '{print > \"out12\"}' a.txt",
  "python3 -c 'open(\"out13\",\"w\")'",
  "node -e 'require(\"fs\").writeFileSync(\"out14\",\"x\")'",
  "cp a.txt out15",
  "mv list out16",
  "git init",
  "npm --version",
  "echo x >> a.txt",
  "printf x | tee -a a.txt",
  "ls > /dev/null; echo x 1> out17",
  // readers with a write operand or option, and options that run a program
  "xxd a.txt out18",
  "xxd -r a.txt out19",
  "tree -o out20",
  "less -o out21 a.txt",
  "rg --pre ./x.sh hello",
  "rg --pre=./x.sh hello",
  "git grep --no-index -O./x.sh hello",
  "git grep --no-index -nO./x.sh hello",
  "git grep --no-index --open-files-in-pager=./x.sh hello",
  // an assignment before a reader, or alone, can make it run another program
  "GIT_EXTERNAL_DIFF=./x.sh git diff --no-index a.txt list",
  "PAGER=./x.sh git log",
  "GIT_PAGER=./x.sh git log",
  "LESSOPEN='|./x.sh %s' less a.txt",
  "RIPGREP_CONFIG_PATH=rgrc rg hello",
  "X=1 ls",
  "PATH=.:$PATH",
  "printf -v PATH %s .",
];

describe("Bash while planning", () => {
  it("runs the commands that only read and denies every command that writes or runs a program", async () => {
    const calls = [...READS, ...WRITES].map((command) => ({ name: "Bash", arguments: { command } }));
    rig = await cliRig({ replies: [{ tool_calls: calls }, { content: "## Steps\n1. nothing" }] }, { "a.txt": "hello\n", list: "a.txt\n", "sub/.keep": "", "x.sh": "#!/bin/sh\necho pwned > pwned.txt\ncat \"$1\"\n", rgrc: "--pre=./x.sh\n" });
    chmodSync(join(rig.env.root, "x.sh"), 0o755);
    const r = await rig.run(["-p", "look around", "--permission-mode", "plan", "--allowedTools", "Bash"]);
    expect(r.code).toBe(0);
    const last = chatBodies(rig.sim.requests).at(-1)!;
    const results = last.messages.filter((m) => m.role === "tool").map((m) => String(m.content));
    expect(results).toHaveLength(calls.length);
    READS.forEach((c, i) => expect({ c, denied: results[i].startsWith("Permission denied") }).toEqual({ c, denied: false }));
    WRITES.forEach((c, i) => expect({ c, result: results[READS.length + i].slice(0, 60) }).toEqual({ c, result: expect.stringMatching(/^Permission denied for Bash: plan mode/) }));
    expect(readFileSync(join(rig.env.root, "a.txt"), "utf8")).toBe("hello\n");
    expect(existsSync(join(rig.env.root, "list"))).toBe(true);
    expect(readdirSync(rig.env.root).filter((f) => f.startsWith("out")).concat(readdirSync(join(rig.env.root, "sub")).filter((f) => f.startsWith("out")))).toEqual([]);
    expect(existsSync(join(rig.env.root, ".git"))).toBe(false);
    expect(existsSync(join(rig.env.root, "pwned.txt"))).toBe(false);
  });
});

describe("the read-only tools while planning", () => {
  it("runs Grep and Glob (which run rg) with patterns a shell would read as syntax", async () => {
    const calls = [
      { name: "Grep", arguments: { pattern: "hel+o; rm a.txt $(touch out1)", path: "." } },
      { name: "Grep", arguments: { pattern: "hello", path: ".", output_mode: "content" } },
      { name: "Glob", arguments: { pattern: "**/*.txt" } },
    ];
    rig = await cliRig({ replies: [{ tool_calls: calls }, { content: "## Steps\n1. nothing" }] }, { "a.txt": "hello\n" });
    const r = await rig.run(["-p", "--permission-mode", "plan", "look around"]);
    expect(r.code).toBe(0);
    const results = chatBodies(rig.sim.requests).at(-1)!.messages.filter((m) => m.role === "tool").map((m) => String(m.content));
    expect(results[0]).not.toMatch(/plan mode|denied/i);
    expect(results[1]).toContain("hello");
    expect(results[2]).toContain("a.txt");
    expect(existsSync(join(rig.env.root, "out1"))).toBe(false);
  });
});
