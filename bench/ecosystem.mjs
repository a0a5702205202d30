// `npm run bench -- ecosystem` (on demand): real public Claude Code marketplaces and setups,
// installed the way their READMEs say, through the built CLI: each marketplace is added and
// every plugin it lists installed (`--yes-install`); each setup's `.claude/` (or, for a setup
// meant for ~/.claude, its files) is copied into a fresh project. Then a start-up
// (`deepcode plugin list` in the project: assembly loads every mod) shows what did not load:
// each warning line is a part named with its reason. The table counts plugins installed, the
// output styles `/output-style` lists beyond the built-in three, and the lines said at start-up.
//
// The clones come from ECOSYSTEM_CLONES (default /work/.mirror): `<owner>+<name>/repo`, a bare git
// directory each (what the workspace's fetch tool leaves). A source whose clone is absent is
// skipped, said so; with none present the section says so and ends.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../bin/deepcode.js", import.meta.url));
const CLONES = process.env.ECOSYSTEM_CLONES ?? "/work/.mirror";

/** kind: marketplace (add it, install every plugin) or setup (copy `from` into the project's `to`). */
const SOURCES = [
  { repo: "anthropics/claude-code", kind: "marketplace" },
  { repo: "obra/superpowers", kind: "marketplace" },
  { repo: "VoltAgent/awesome-claude-code-subagents", kind: "marketplace" },
  { repo: "EveryInc/compound-engineering-plugin", kind: "marketplace" },
  { repo: "disler/claude-code-hooks-mastery", kind: "setup", from: ".claude", to: ".claude" },
  { repo: "centminmod/my-claude-code-setup", kind: "setup", from: ".claude", to: ".claude" },
  { repo: "feiskyer/claude-code-settings", kind: "setup", from: ".", to: ".claude" },
];

function cli(env, cwd, args) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, env, encoding: "utf8", timeout: 300_000 });
  return { code: r.status, out: r.stdout ?? "", err: r.stderr ?? "" };
}

/** The clone's newest tree, without the files the snapshot left absent (its largest): each
 *  one git cannot read is left out by name and the archive made again. */
function tree(gitDir, into) {
  mkdirSync(into, { recursive: true });
  const left = [];
  for (let i = 0; i < 200; i++) {
    const r = spawnSync("git", ["--git-dir", gitDir, "archive", "HEAD", "--", ".", ...left.map((p) => `:(exclude)${p}`)], { maxBuffer: 1 << 30 });
    const bad = /for '([^']+)'/.exec(r.stderr?.toString("utf8") ?? "");
    if (r.status === 0) {
      execFileSync("tar", ["-x", "-C", into], { input: r.stdout, maxBuffer: 1 << 30 });
      return left;
    }
    if (!bad) throw new Error(`git archive failed: ${r.stderr}`);
    left.push(bad[1]);
  }
  throw new Error("too many unreadable files");
}

/** The warning lines a start-up printed, one per part not loaded (deduplicated). */
function startupLines(err) {
  return [...new Set(err.split("\n").map((l) => l.trim()).filter((l) => l && !/^deepcode \d/.test(l)))];
}

function one(src) {
  const gitDir = join(CLONES, src.repo.replace("/", "+"), "repo");
  if (!existsSync(gitDir)) return { repo: src.repo, skipped: `no clone at ${gitDir}` };
  const base = mkdtempSync(join(tmpdir(), "deepcode-ecosystem-"));
  try {
    const home = join(base, "home");
    const project = join(base, "project");
    const clone = join(base, "clone");
    mkdirSync(home, { recursive: true });
    mkdirSync(project, { recursive: true });
    tree(gitDir, clone);
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, DEEPCODE_HOME: join(home, ".deepcode"), NO_COLOR: "1", DEEPSEEK_API_KEY: "sk-ecosystem-bench" };
    const row = { repo: src.repo, kind: src.kind, plugins: 0, installed: 0, failed: [], said: [] };
    if (src.kind === "marketplace") {
      const add = cli(env, project, ["plugin", "marketplace", "add", clone]);
      if (add.code !== 0) return { ...row, failed: [`marketplace add: ${add.err.trim().split("\n")[0]}`] };
      const m = JSON.parse(readFileSync(join(clone, ".claude-plugin", "marketplace.json"), "utf8"));
      for (const p of m.plugins ?? []) {
        row.plugins++;
        const r = cli(env, project, ["plugin", "install", `${p.name}@${m.name}`, "--yes-install"]);
        if (r.code === 0) row.installed++;
        else row.failed.push(`${p.name}: ${(r.err.trim() || r.out.trim()).split("\n").slice(-1)[0]}`);
      }
    } else {
      cpSync(join(clone, src.from), join(project, src.to), { recursive: true, filter: (f) => !f.includes(`${join(clone, ".git")}`) });
    }
    const start = cli(env, project, ["--trust-project", "plugin", "list"]);
    row.said = startupLines(start.err);
    // Output styles it ships (Claude Code's built-in three are always there).
    const styles = cli(env, project, ["--trust-project", "-p", "/output-style"]);
    row.styles = styles.out.split("\n").filter((l) => /^[●○] /.test(l)).length - 3;
    return row;
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

export async function run() {
  console.log("\n## ecosystem: real public marketplaces and setups, installed and started\n");
  const rows = SOURCES.map(one);
  if (rows.every((r) => r.skipped)) {
    console.log(`skipped: no clones under ${CLONES} (set ECOSYSTEM_CLONES)`);
    return;
  }
  console.log("| source | kind | plugins installed | output styles loaded | lines said at start-up |");
  console.log("|---|---|---|---|---|");
  for (const r of rows) {
    if (r.skipped) console.log(`| ${r.repo} | — | skipped: ${r.skipped} | |`);
    else console.log(`| ${r.repo} | ${r.kind} | ${r.kind === "marketplace" ? `${r.installed}/${r.plugins}` : "—"} | ${r.styles} | ${r.said.length} |`);
  }
  for (const r of rows.filter((x) => !x.skipped && (x.failed.length || x.said.length))) {
    console.log(`\n${r.repo}:`);
    for (const f of r.failed) console.log(`  not installed: ${f}`);
    for (const s of r.said) console.log(`  said: ${s.slice(0, 240)}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
