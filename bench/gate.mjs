// The permission gate's time per Bash call: allowed everyday lines (the fast path every command
// takes) and a mix of attack lines from the adversarial corpus's families, against what a Bash
// call costs at the least — starting `bash -c true` (the ratio is the figure to compare across
// machines and runs). Goals: the allowed-line fast path costs under 5% of that; no attack line
// of the mix is allowed.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compileRules, decide } from "../dist/src/cli/permissions/index.js";
import { fast, fmt, nsPerCall, table } from "./lib.mjs";

const ALLOW = ["echo", "printf", "ls", "cat", "head", "grep", "sed", "awk", "find", "sort", "git status", "git log", "git diff", "npm test"].map((c) => `Bash(${c}:*)`);
const DENY = ["Bash(rm:*)", "Bash(curl:*)", "Bash(git push:*)"];

const ALLOWED = [
  "echo hi", "ls -la src", "cat README.md", "git status", "git log --oneline -5", "npm test", "npm test -- --watch=false",
  "grep -n TODO src/a.ts", "sed -n 1,20p README.md", "awk '{print $1}' README.md", "ls 2>/dev/null", "echo a | sort",
  "cd src && ls", "git diff --stat", "find src -name '*.ts'", "head -5 README.md && echo done",
];
const MIX = [
  "test -v 'a[$(rm victim.txt)]'", "echo a > x.txt", "ls 2>>x.txt", "npm test --node-options=--require=./x.js", "git -c core.pager=x log",
  "node -e 'process.exit(0)'", "ln -s ../outside d && echo x > d/f", "grep -r TOKEN .", "cat .env", "echo $(rm x)",
  "bash -c 'rm x'", "env PATH=. ls", "sed 's/a/b/e' README.md", "awk 'BEGIN{system(\"x\")}'", "cat <<EOF\n$(rm x)\nEOF",
  "f() { rm x; }; f", "DEBUG='a[$(x)]'; echo ${!DEBUG}", "find . -exec cat {} +", "tar -cf - src", "$'\\x72m' x",
];

export async function run() {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "deepcode-bench-gate-")));
  const root = join(base, "ws");
  const home = join(base, "home");
  mkdirSync(join(root, "src"), { recursive: true });
  mkdirSync(home);
  writeFileSync(join(root, "README.md"), "# x\n");
  writeFileSync(join(root, ".env"), "TOKEN=x\n");
  for (let i = 0; i < 20; i++) writeFileSync(join(root, "src", `f${i}.ts`), "export {};\n");
  const { rules } = compileRules([...ALLOW.map((text) => ({ kind: "allow", text, layer: "project" })), ...DENY.map((text) => ({ kind: "deny", text, layer: "project" }))]);
  const env = { root, home, cwd: root };
  const call = (command) => decide({ tool: "Bash", input: { command }, readOnly: false }, rules, env);
  const allowedWrong = ALLOWED.filter((c) => call(c).decision !== "allow");
  const mixAllowed = MIX.filter((c) => call(c).decision === "allow");

  const n = fast ? 300 : 3000;
  let k = 0;
  const perAllowed = await nsPerCall(() => call(ALLOWED[k++ % ALLOWED.length]), n);
  let j = 0;
  const perMix = await nsPerCall(() => call(MIX[j++ % MIX.length]), n);
  const spawns = fast ? 10 : 40;
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < spawns; i++) spawnSync("bash", ["-c", "true"]);
  const spawn = Number(process.hrtime.bigint() - t0) / spawns;
  rmSync(base, { recursive: true, force: true });

  const rows = [["lines", "per call", "bash -c true", "ratio", "goal", "met"]];
  rows.push([`allowed (${ALLOWED.length} everyday lines)`, fmt.ns(perAllowed), fmt.ns(spawn), fmt.pct(perAllowed / spawn), "< 5% of bash", perAllowed / spawn < 0.05 && allowedWrong.length === 0 ? "yes" : "NO"]);
  rows.push([`attack mix (${MIX.length} lines)`, fmt.ns(perMix), fmt.ns(spawn), fmt.pct(perMix / spawn), "none allowed", mixAllowed.length === 0 ? "yes" : "NO"]);
  table("gate: decideBash time per call against starting bash", rows);
  if (allowedWrong.length > 0) console.log(`not allowed (should be): ${allowedWrong.join(" | ")}`);
  if (mixAllowed.length > 0) console.log(`allowed (should not be): ${mixAllowed.join(" | ")}`);
}
