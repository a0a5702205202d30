// What the Bash sandbox does not contain, for `sandbox.autoAllowBashIfSandboxed`.
//
// With the sandbox active and without network, a command runs where it can only write inside
// the workspace (protected paths excepted), sees no secrets and reaches no host. Such a command
// needs no prompt — except when what it does still matters beyond the box:
//   - it needs the network or another machine (`git push`, `npm install`, `curl`, `ssh`…): in
//     the sandbox it would fail, so the person decides (and may turn the network on);
//   - it publishes or acts on shared systems (`npm publish`, `docker`, `kubectl`, `gh`…);
//   - it raises privileges (`sudo`, `su`, `doas`, `pkexec`);
//   - it destroys work inside the workspace that a checkpoint would not bring back: git's
//     history and index rewrites (`git reset --hard`, `git clean -f`, `git checkout -- .`,
//     `git restore`, `git stash drop|clear`, `git branch -D`, reflog expiry), a recursive delete
//     of `.git`, of the workspace itself or of a folder above it, `find … -delete`, `shred`.
//     Containment is not undo: these ask (checkpoints save what `rm`/`mv`/`cp` name, not what
//     git rewrites);
//   - where the repository's history holds a secret file (`historySecret`, git-history.ts), a
//     git command that can print object contents (`git log -p`, `git show <rev>`, `git diff`,
//     `git cat-file`, `git archive`…): the sandbox hides the file, not git's copy of it. Only
//     metadata (`git status`, `git log --oneline/--stat`, `git show --stat`) and everyday
//     commands that print no old contents stay unprompted there.
// Everything here is a pure judgement of one shell part, read by the shell reader.

import { isAbsolute, resolve } from "node:path";
import type { ShellPart } from "../../../lib/shell/types.js";
import { fetchOnly, GIT_FETCH, loopbackFetch } from "./fetch-only.js";

/** Programs that only make sense with the network or another machine, or that act on shared
 *  systems outside the workspace. */
const NETWORK_PROGRAMS = new Set([
  "curl", "wget", "aria2c", "nc", "ncat", "netcat", "socat", "telnet", "ftp", "sftp", "scp", "ssh", "rsync", "mosh",
  "docker", "podman", "kubectl", "helm", "gh", "glab", "hub", "aws", "gcloud", "az", "heroku", "fly", "flyctl", "vercel", "netlify", "terraform",
  "npx", "pnpx", "bunx", "apt", "apt-get", "dnf", "yum", "brew", "snap", "flatpak", "pipx",
  "systemctl", "crontab", "at", "launchctl", "shutdown", "reboot", "mount", "umount",
]);

/** Privilege raising: always a person's call. */
const PRIVILEGE = new Set(["sudo", "su", "doas", "pkexec", "runuser", "setpriv", "chroot"]);

/** Package managers: the subcommands that fetch, publish or log in. */
const PACKAGE_NET: Record<string, ReadonlySet<string>> = {
  npm: new Set(["install", "i", "in", "ins", "inst", "insta", "instal", "isnt", "isnta", "isntal", "add", "ci", "clean-install", "install-test", "it", "install-ci-test", "cit", "update", "up", "upgrade", "udpate", "publish", "unpublish", "deprecate", "dist-tag", "owner", "access", "login", "logout", "adduser", "add-user", "token", "team", "org", "hook", "star", "unstar", "exec", "x", "init", "create", "create-react-app", "outdated", "audit", "view", "v", "info", "show", "search", "pack", "dedupe", "ddp", "prune", "rebuild", "link", "ln", "profile", "whoami", "ping", "doctor"]),
  yarn: new Set(["add", "install", "upgrade", "up", "publish", "npm", "dlx", "create", "login", "logout", "outdated", "info", "audit", "remove"]),
  pnpm: new Set(["add", "install", "i", "update", "up", "upgrade", "publish", "dlx", "create", "login", "logout", "outdated", "audit", "remove", "rm", "exec"]),
  bun: new Set(["add", "install", "i", "update", "publish", "x", "create", "remove", "rm"]),
  pip: new Set(["install", "download", "wheel", "uninstall"]),
  pip3: new Set(["install", "download", "wheel", "uninstall"]),
  uv: new Set(["pip", "add", "sync", "lock", "tool", "publish", "run"]),
  poetry: new Set(["add", "install", "update", "publish", "lock"]),
  cargo: new Set(["install", "publish", "login", "add", "update", "fetch", "search", "owner", "yank"]),
  gem: new Set(["install", "push", "update", "uninstall", "signin", "owner", "yank"]),
  bundle: new Set(["install", "update", "add"]),
  go: new Set(["get", "install", "mod"]),
  composer: new Set(["install", "require", "update"]),
  twine: new Set(["upload", "register"]),
  deno: new Set(["install", "publish"]),
};

/** git subcommands that reach a remote or another machine. */
const GIT_NETWORK = new Set(["push", "fetch", "pull", "clone", "ls-remote", "send-email", "request-pull", "archive-remote", "daemon", "http-push", "svn", "p4"]);

export interface Escape {
  /** Why the sandbox does not make it harmless, for the ask's reason. */
  why: string;
}

/** What of this part the sandbox does not contain, or null when it contains all of it.
 *  `root`: the workspace root; `home`: the home folder. */
/** `historySecret(dir)`: whether the repository holding `dir` has a secret file in its history
 *  (git-history.ts); absent, history is not considered. */
/** `proxied`: the sandbox reaches the hosts of `sandbox.network.allowedDomains` through its
 *  filtering proxy, so commands that only fetch (fetch-only.ts) are contained too. */
export function escapesContainment(part: ShellPart, root: string, home: string, historySecret?: (dir: string) => boolean, proxied = false): Escape | null {
  const name = part.name;
  const args = part.words.slice(1).map((w) => w.value);
  if (PRIVILEGE.has(name) || part.escalated) return { why: "it raises privileges" };
  const fetches = proxied && fetchOnly(name, args);
  if (fetches || loopbackFetch(name, args)) return null;
  if (NETWORK_PROGRAMS.has(name)) return { why: `'${name}' reaches the network, another machine or a shared system, which the sandbox cuts off` };
  const sub = firstOperand(args);
  const pkg = PACKAGE_NET[name];
  if ((name === "yarn" || name === "bundle") && sub === null) return { why: `'${name}' alone installs packages over the network` };
  if (pkg && sub !== null && pkg.has(sub)) return { why: `'${name} ${sub}' fetches, publishes or changes installed packages over the network` };
  if ((name === "python" || name === "python3") && args[0] === "-m" && (args[1] === "pip" || args[1] === "twine")) return { why: `'${name} -m ${args[1]}' fetches or publishes packages` };
  if (name === "git") return gitEscape(args, proxied) ?? (historySecret ? gitHistoryEscape(part, args, root, historySecret) : null);
  if (name === "rm") return rmEscape(part, root, home);
  if (name === "find" && args.some((a) => a === "-delete")) return { why: "'find … -delete' removes files a checkpoint does not name" };
  if (name === "shred" || name === "wipefs") return { why: `'${name}' destroys file contents for good` };
  return null;
}

function gitEscape(args: readonly string[], proxied: boolean): Escape | null {
  // Skip git's global options (`-C dir`, `-c k=v`, `--git-dir=…`) to the subcommand.
  let i = 0;
  while (i < args.length && args[i].startsWith("-")) i += args[i] === "-C" || args[i] === "-c" || args[i] === "--git-dir" || args[i] === "--work-tree" || args[i] === "--namespace" ? 2 : 1;
  const sub = args[i];
  const rest = args.slice(i + 1);
  // A long option counts under any unique prefix git accepts (`--ha` for `--hard`).
  const has = (...flags: string[]): boolean =>
    rest.some((a) => flags.includes(a) || (a.startsWith("--") && a.length > 3 && flags.some((f) => f.startsWith("--") && f.startsWith(a.split("=")[0]))));
  if (sub === undefined) return null;
  if (GIT_NETWORK.has(sub) && !(proxied && GIT_FETCH.has(sub))) return { why: `'git ${sub}' reaches a remote` };
  if (sub === "submodule" && rest.some((a) => a === "update" || a === "add" || a === "sync")) return { why: "'git submodule' fetches from remotes" };
  if (sub === "remote" && rest.some((a) => a === "update" || a === "prune" || a === "show")) return { why: "'git remote' reaches a remote" };
  const destroys = "destroys work that /undo cannot bring back (a checkpoint saves files tools name, not what git rewrites)";
  if (sub === "reset" && has("--hard", "--merge", "--keep")) return { why: `'git reset --hard' ${destroys}` };
  if (sub === "clean" && !has("-n", "--dry-run") && rest.some((a) => /^-[a-zA-Z]*f/.test(a) || a === "--force")) return { why: `'git clean -f' deletes untracked (and with -x ignored) files: it ${destroys}` };
  if (sub === "checkout" && (rest.includes("--") || rest.includes(".") || has("-f", "--force") || rest.some((a) => a === "-p" || a === "--patch"))) return { why: `'git checkout' over files ${destroys}` };
  if (sub === "restore" && !(rest.includes("--staged") && !rest.includes("--worktree") && !rest.includes("-W"))) return { why: `'git restore' discards changes: it ${destroys}` };
  if (sub === "switch" && has("--discard-changes", "-f", "--force")) return { why: `'git switch --discard-changes' ${destroys}` };
  if (sub === "stash" && rest.some((a) => a === "drop" || a === "clear")) return { why: `'git stash ${rest.find((a) => a === "drop" || a === "clear")}' ${destroys}` };
  if (sub === "branch" && rest.some((a) => a === "-D" || (/^-[a-zA-Z]*D/.test(a) && !a.startsWith("--")) || ((a === "-d" || a === "--delete") && has("-f", "--force")))) return { why: `'git branch -D' ${destroys}` };
  if (sub === "reflog" && rest.some((a) => a === "expire" || a === "delete")) return { why: `'git reflog ${rest[0]}' ${destroys}` };
  if (sub === "gc" && rest.some((a) => a.startsWith("--prune"))) return { why: `'git gc --prune' ${destroys}` };
  if (sub === "filter-branch" || sub === "filter-repo" || sub === "update-ref" || sub === "replace") return { why: `'git ${sub}' rewrites history: it ${destroys}` };
  return null;
}

/** git subcommands that print no object contents from history (nor write them anywhere a
 *  command could read): unprompted even where the history holds a secret. */
const GIT_NO_CONTENT = new Set([
  "status", "add", "commit", "branch", "tag", "rev-parse", "rev-list", "ls-files", "ls-tree", "describe", "shortlog", "remote", "config",
  "merge-base", "for-each-ref", "show-ref", "symbolic-ref", "check-ignore", "init", "mv", "rm",
  "version", "help", "count-objects", "name-rev", "var", "mergetool", "stage",
]);
/** Subcommands that print commits and, with patch options, their contents. */
const GIT_LOG_LIKE = new Set(["log", "whatchanged", "reflog"]);
/** `git show` options that print metadata only (instead of the patch or the object). */
const SHOW_METADATA = new Set(["--stat", "--numstat", "--shortstat", "--name-only", "--name-status", "--summary", "-s", "--no-patch", "--dirstat"]);

/** A `git` part that can print a secret file kept in the repository's history, or null. Asked
 *  under an allow rule too (`Bash(git log:*)` allows reading history, not the secrets in it: as
 *  `cat .env` asks under `Bash(cat:*)`). */
export function gitHistoryRead(part: ShellPart, root: string, historySecret: (dir: string) => boolean): Escape | null {
  return part.name === "git" ? gitHistoryEscape(part, part.words.slice(1).map((w) => w.value), root, historySecret) : null;
}

function gitHistoryEscape(part: ShellPart, args: readonly string[], root: string, historySecret: (dir: string) => boolean): Escape | null {
  let i = 0;
  let elsewhere = false; // -C/--git-dir/--work-tree: another repository than the folder's
  while (i < args.length && args[i].startsWith("-")) {
    if (["-C", "--git-dir", "--work-tree"].includes(args[i]) || /^--(git-dir|work-tree)=/.test(args[i])) elsewhere = true;
    i += args[i] === "-C" || args[i] === "-c" || args[i] === "--git-dir" || args[i] === "--work-tree" || args[i] === "--namespace" ? 2 : 1;
  }
  const sub = args[i];
  const rest = args.slice(i + 1);
  if (sub === undefined || !printsContent(sub, rest)) return null;
  const redirected = elsewhere || part.cwd.unknown || part.assigns.some((a) => /^GIT_/.test(a.split("=")[0]));
  const dirs = part.cwd.dirs.length > 0 ? part.cwd.dirs : [root];
  if (!redirected && !dirs.some((d) => historySecret(d))) return null;
  return { why: `'git ${sub}' can print files from the repository's history, which holds a secret file the sandbox hides only in the working tree` };
}

/** Whether `git <sub> <rest>` can print object contents (a patch, a blob, an archive) or
 *  search them (`-S`/`-G`, an oracle). Unknown subcommands (aliases included) count. */
function printsContent(sub: string, rest: readonly string[]): boolean {
  if (GIT_NO_CONTENT.has(sub)) return false;
  // A new branch at HEAD writes nothing old; any other checkout, switch, merge… can write an
  // old secret into the working tree, where the rest of the same command can read it.
  if ((sub === "checkout" || sub === "switch") && rest.length === 2 && ["-b", "-B", "-c", "-C"].includes(rest[0])) return false;
  if (sub === "stash" && !rest.includes("show")) return false;
  const patch = rest.some((a) =>
    /^--(patch|patch-with-stat|patch-with-raw|unified|word-diff|color-words|cc|binary|textconv|ext-diff|full-index|pickaxe|find-object|function-context)/.test(a) ||
    (/^-[^-]/.test(a) && /[puUcSGLWm]/.test(a.slice(1)) && !/^-n\d*$/.test(a)));
  if (GIT_LOG_LIKE.has(sub)) return patch;
  if (sub === "show") {
    const operands = rest.filter((a) => !a.startsWith("-"));
    const metadata = rest.some((a) => SHOW_METADATA.has(a.split("=")[0]));
    // An operand could name a blob (a hash, a tag, `rev:path`): only HEAD-relative commits.
    return patch || !metadata || !operands.every((o) => /^(HEAD|@)([~^]\d*)*$/.test(o));
  }
  return true;
}

function rmEscape(part: ShellPart, root: string, home: string): Escape | null {
  const words = part.words.slice(1);
  let opts = true;
  let recursive = false;
  const targets: typeof words = [];
  for (const w of words) {
    if (opts && w.value === "--") opts = false;
    else if (opts && w.value.startsWith("--")) recursive ||= w.value === "--recursive" || "--recursive".startsWith(w.value.split("=")[0]) && w.value.length > 4;
    else if (opts && w.value.startsWith("-") && w.value.length > 1) recursive ||= /[rR]/.test(w.value);
    else targets.push(w);
  }
  if (!recursive) return null;
  for (const t of targets) {
    if (t.expanded && !t.quoted) return { why: "'rm -r' of a folder named only at run time: it may delete the workspace's history or more than a checkpoint can bring back" };
    const v = t.tilde ? home + t.value.slice(1) : t.value;
    if (part.cwd.unknown && !isAbsolute(v)) return { why: "'rm -r' from a folder known only at run time" };
    for (const dir of part.cwd.dirs.length > 0 ? part.cwd.dirs : [root]) {
      const abs = resolve(dir, v);
      const rel = abs === root ? "" : abs.startsWith(`${root}/`) ? abs.slice(root.length + 1) : null;
      if (rel === "" || (rel === null && root.startsWith(`${abs}/`))) return { why: "'rm -r' of the whole workspace (or a folder holding it)" };
      if (rel !== null && /(^|\/)\.git(\/|$)/.test(rel)) return { why: "'rm -r' of .git deletes the project's history" };
      if (t.glob && rel !== null && !rel.includes("/")) return { why: "'rm -r' with a wildcard at the top of the workspace (a mass delete)" };
    }
  }
  return null;
}

/** The first word that is not an option (a package manager's subcommand). */
function firstOperand(args: readonly string[]): string | null {
  for (const a of args) if (!a.startsWith("-")) return a;
  return null;
}
