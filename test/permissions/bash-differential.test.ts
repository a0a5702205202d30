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
