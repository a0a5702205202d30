// Differential check against real bash: random command lines built from shell syntax pieces;
// every line the decision allows (under allow echo/ls, deny rm) is run by bash with a PATH of
// stub programs that record themselves. An allowed line must run no program but `ls`, and create
// nothing outside the workspace. The pieces contain no `/`, so nothing can reach above the
// temporary folder even if the decision were wrong.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { decide } from "../../src/cli/permissions/index.js";
import { CONTROL_ALLOW, CONTROLS, CORPUS_DENY, FAMILIES } from "./adversarial-corpus.js";
import { haveBash, makeFixture, type Fixture } from "./adversarial-fixture.js";
import { makeWorkspace, rulesOf, type Workspace } from "./helpers.js";

const REAL = { bash: "/bin/bash", env: "/usr/bin/env", xargs: "/usr/bin/xargs" };
const available = Object.values(REAL).every((p) => existsSync(p));

const PIECES = [
  "a", "rm", "echo", "ls", "echo ", "ls ", "echo ", " ", " ", " ", ";", "&", "|", "(", ")", "{", "}", "$", "`", "'", '"', "\\",
  "<", ">", "\n", "$(", "${", "<<", "EOF", "*", "~", "..", "=", "#", "[[", "]]", "-c", "bash", "eval", "xargs", "env", "cd",
  "'rm'", "x", "X=rm", "$X", "f()", "!", "&&", "||", ">&",
];

let ws: Workspace;
let stubs: string;
let log: string;
beforeAll(() => {
  ws = makeWorkspace();
  stubs = join(ws.base, "stubs");
  log = join(ws.base, "ran.log");
  mkdirSync(stubs);
  for (const name of ["rm", "a", "ls", "curl", "cat", "sh"]) writeStub(name, `echo ${name} >> '${log}'`);
  for (const [name, real] of Object.entries(REAL)) writeStub(name, `exec ${real} "$@"`);
});
afterAll(() => ws.cleanup());

function writeStub(name: string, body: string): void {
  writeFileSync(join(stubs, name), `#!${REAL.bash}\n${body}\n`);
  chmodSync(join(stubs, name), 0o755);
}

describe.skipIf(!available)("allowed command lines, run by real bash", () => {
  it("run no program that is not allowed and write nothing outside the workspace", () => {
    const rules = rulesOf({ project: { allow: ["Bash(echo:*)", "Bash(ls:*)"], deny: ["Bash(rm:*)"] } });
    let seed = 12345;
    const random = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const baseline = readdirSync(ws.base).sort();
    const escapes: string[] = [];
    let allowed = 0;
    for (let n = 0; n < 4000; n++) {
      let cmd = "";
      for (let i = 1 + Math.floor(random() * 16); i > 0; i--) cmd += PIECES[Math.floor(random() * PIECES.length)];
      if (decide({ tool: "Bash", input: { command: cmd }, readOnly: false }, rules, ws.env).decision !== "allow") continue;
      allowed++;
      rmSync(log, { force: true });
      spawnSync(REAL.bash, ["-c", cmd], { cwd: ws.root, env: { PATH: stubs, HOME: ws.home }, timeout: 5000, stdio: "ignore" });
      const ran = existsSync(log) ? readFileSync(log, "utf8").split("\n").filter((p) => p !== "" && p !== "ls") : [];
      const extra = readdirSync(ws.base).filter((f) => f !== "ran.log" && !baseline.includes(f));
      if (ran.length > 0 || extra.length > 0) escapes.push(`${JSON.stringify(cmd)} ran ${ran.join(",")} created ${extra.join(",")}`);
      for (const f of extra) rmSync(join(ws.base, f), { recursive: true, force: true });
    }
    expect(allowed).toBeGreaterThan(100);
    expect(escapes).toEqual([]);
  });
});

// The adversarial corpus (adversarial-corpus.ts), every line run by real bash in a fresh box —
// whether the gate allows it or not, so the count of lines that do harm when run shows the corpus
// has teeth. A line the gate allows must do nothing its rules do not name.
describe.skipIf(!haveBash)("the adversarial corpus, run by real bash", () => {
  let fixture: Fixture;
  beforeAll(() => {
    fixture = makeFixture();
  });
  afterAll(() => fixture?.cleanup());

  const decideIn = (box: { root: string; home: string }, allow: string[], line: string) =>
    decide({ tool: "Bash", input: { command: line }, readOnly: false }, rulesOf({ project: { allow, deny: CORPUS_DENY } }), { root: box.root, home: box.home, cwd: box.root });

  // One test per family (each a few seconds; the whole corpus is minutes on a loaded machine),
  // then the corpus's size and teeth over all of them.
  let tried = 0;
  let harmful = 0;
  let stopped = 0;
  for (const family of FAMILIES) {
    it(`family ${family.name}: every allowed line does only what its rules name`, () => {
      const escapes: string[] = [];
      for (const line of family.lines) {
        tried++;
        const box = fixture.fresh();
        const d = decideIn(box, family.allow, line);
        const { harm } = fixture.run(box, line, family.projectMayChange === true);
        if (harm.length > 0) harmful++;
        if (d.decision !== "allow") stopped++;
        else if (harm.length > 0) escapes.push(`${JSON.stringify(line)} was allowed (${d.reason}) and ${harm.join("; ")}`);
      }
      expect(escapes).toEqual([]);
    });
  }

  it("holds at least 200 lines in families, and most of them do harm when run without the gate", () => {
    console.log(`adversarial corpus: ${tried} lines tried, ${stopped} stopped (asked or denied), ${tried - stopped} allowed and harmless; ${harmful} do harm when run without the gate`);
    expect(tried).toBe(FAMILIES.reduce((n, f) => n + f.lines.length, 0));
    expect(tried).toBeGreaterThanOrEqual(200);
    expect(harmful).toBeGreaterThan(tried / 2);
  });

  it("allows the controls without a prompt, and they run for real", () => {
    const failures: string[] = [];
    for (const line of CONTROLS) {
      const box = fixture.fresh();
      const d = decideIn(box, CONTROL_ALLOW, line);
      const r = fixture.run(box, line, false);
      if (d.decision !== "allow" || r.status !== 0 || r.harm.length > 0) failures.push(`${JSON.stringify(line)}: ${d.decision} (${d.reason}), exit ${r.status}, ${r.harm.join("; ")} ${r.output.slice(0, 200)}`);
    }
    console.log(`adversarial corpus: ${CONTROLS.length} controls allowed and run`);
    expect(failures).toEqual([]);
  });
});
