// What a repository's git configuration makes a read-only git command run, or print (issue #36).
//
// Without a sandbox, `git status` and `git diff` are read-only only if the configuration names no
// program they run: core.fsmonitor (a hook run on every index refresh), a diff driver's command or
// textconv, diff.external, a clean/smudge filter, gpg programs (log.showSignature), a pager.
// Their words cannot say so; the configuration can. `git config --list` (every scope, includes
// followed, GIT_CONFIG_* from the environment) is read once per folder and kept until one of the
// configuration files changes; with an include the answer is never kept (an included file may lie
// anywhere). A repository with submodules initialised asks too: `git status` runs git in each,
// under a configuration this does not read. When git cannot answer (a timeout, a broken
// repository) the answer is "runs something" (fail closed).
//
// `credential` says whether a value looks like a credential (a URL with a password, an extra
// HTTP header, a token): `git remote -v` and `git config --list` would print it.

import { execFileSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export interface GitConfigView {
  /** Why a read-only git command would run a configured program here, or null. */
  runs: string | null;
  /** The configuration holds what looks like a credential. */
  credential: boolean;
}

const TIMEOUT_MS = 15_000;
const cache = new Map<string, { stamp: string; view: GitConfigView }>();

/** Keys whose value is a program git may run, or that send git elsewhere. */
const PROGRAM_KEYS = [
  /^core\.(?:pager|editor|sshcommand|askpass|gitproxy|alternaterefscommand|worktree)$/,
  /^pager\./, /^diff\.external$/, /^diff\..+\.(?:command|textconv)$/, /^filter\./, /^gpg\./, /^merge\..+\.driver$/,
  /^sequence\.editor$/, /^interactive\.difffilter$/, /^grep\.fallbacktonoindex$/, /^uploadpack\./,
];

export function gitConfigView(dir: string): GitConfigView {
  const gitDir = run(dir, ["rev-parse", "--absolute-git-dir"])?.trim() ?? null;
  const stamp = stampOf(gitDir);
  const known = cache.get(dir);
  if (known && known.stamp === stamp) return known.view;
  const view = judge(dir, gitDir);
  if (!view.includes) cache.set(dir, { stamp, view: { runs: view.runs, credential: view.credential } });
  return { runs: view.runs, credential: view.credential };
}

function judge(dir: string, gitDir: string | null): GitConfigView & { includes: boolean } {
  const out = run(dir, ["config", "--list", "--includes", "-z"]);
  if (out === null) return { runs: "deepcode could not read the repository's git configuration", credential: true, includes: true };
  let runs: string | null = null;
  let credential = false;
  let includes = false;
  for (const entry of out.split("\0")) {
    if (entry === "") continue;
    const nl = entry.indexOf("\n");
    const key = (nl < 0 ? entry : entry.slice(0, nl)).toLowerCase();
    const value = nl < 0 ? "" : entry.slice(nl + 1);
    if (/^include(?:if\..*)?\.path$/.test(key)) includes = true;
    if (key === "core.fsmonitor" && !/^(?:false|no|off|0|true|yes|on|1|)$/i.test(value.trim())) runs ??= `core.fsmonitor runs '${value}' whenever git reads the index`;
    else if (key === "log.showsignature" && /^(?:true|yes|on|1)$/i.test(value.trim())) runs ??= "log.showSignature runs gpg";
    else if (PROGRAM_KEYS.some((re) => re.test(key))) runs ??= `the git configuration sets ${key}, which runs a program or points git elsewhere`;
    if (/extraheader$|password|token|secret/.test(key) || /:\/\/[^/@\s:]+:[^/@\s]+@/.test(value)) credential = true;
  }
  if (runs === null && gitDir !== null && existsSync(join(gitDir, "modules"))) runs = "the repository has submodules, whose own configuration git would follow";
  return { runs, credential, includes };
}

function run(dir: string, args: string[]): string | null {
  try {
    return execFileSync("git", args, {
      cwd: dir, encoding: "utf8", timeout: TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024, stdio: ["ignore", "pipe", "ignore"],
      env: { ...process.env, GIT_OPTIONAL_LOCKS: "0", GIT_TERMINAL_PROMPT: "0" },
    });
  } catch {
    return null; // not a repository, no git, or a broken configuration: the caller fails closed
  }
}

/** What changes when a configuration file does. */
function stampOf(gitDir: string | null): string {
  const home = homedir();
  const files = [join(home, ".gitconfig"), join(process.env.XDG_CONFIG_HOME ?? join(home, ".config"), "git", "config"), "/etc/gitconfig"];
  if (gitDir !== null) files.push(join(gitDir, "config"), join(gitDir, "config.worktree"), join(gitDir, "modules"));
  const env = Object.entries(process.env).filter(([k]) => /^GIT_CONFIG/.test(k)).map(([k, v]) => `${k}=${v}`).join(";");
  return `${gitDir}|${env}|${files.map((f) => {
    try {
      const st = statSync(f);
      return `${st.mtimeMs}:${st.size}`;
    } catch {
      return "-"; // absent: that scope sets nothing
    }
  }).join(",")}`;
}
