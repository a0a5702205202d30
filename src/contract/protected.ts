// What deepcode protects, in one list. The permission gate (src/cli/permissions/paths.ts), the
// Bash sandbox (mods/sandbox/bwrap.ts) and Grep (src/builtins/grep-secrets.ts) all read it here,
// so what one of them treats as a secret or a protected file the others do too.
//
// - Secrets: file names that usually hold credentials (`.env…`, private keys, key files,
//   package-manager and CLI token files, shell histories, browser cookie and password stores),
//   the places in the home folder that hold credentials (~/.ssh, ~/.aws, ~/.npmrc,
//   ~/.config/gh, browser profiles …), and deepcode's own home as a whole — wherever
//   DEEPCODE_HOME puts it, and the default ~/.deepcode too (other sessions' transcripts, the
//   usage ledger, the credentials, the history, the trusted projects, installed plugins).
//   Reading one asks; the sandbox hides the home ones; Grep never reads any of them. A file that
//   is one of them under another name (a hard link, a symlink) counts as it (paths.ts,
//   identity.ts).
// - Protected project paths: what a change to would loosen the rules or run code later — git
//   hook managers' files and editors' folder tasks included (the list says what is left out on
//   purpose, and why). A write there asks even under an allow rule (unless the rule names the
//   path); the sandbox keeps them read-only, stands in for missing folders and watches missing
//   files. They are compared the way a file system may resolve a name (protectedProjectEntry).
//   package.json's lifecycle scripts and hook keys are guarded by content, not by path
//   (package-scripts.ts).
//
// Paths here are `/`-separated strings: the contract imports nothing, node:path included.

import { HISTORY_NAMES, HOME_SECRET_GROUPS } from "./home-secrets.js";
/** A file name pattern: names that start with `prefix`, that end with `suffix` (compared
 *  without regard to case), or that are one of `names`, minus the exceptions. */
export interface SecretNamePattern {
  prefix?: string;
  suffix?: string;
  /** Whole names (compared exactly, or without regard to case with `nocase`). */
  names?: readonly string[];
  nocase?: boolean;
  /** Whole names that do not count, though they start with `prefix` (`.env.example`). */
  except?: readonly string[];
  /** Names ending with this do not count (`id_rsa.pub` is a public key). */
  exceptEnding?: string;
  /** Why such a file is a secret, for people and the model. */
  why: string;
}


export const SECRET_NAMES: readonly SecretNamePattern[] = [
  // `.env`, `.env.local`, `.env.production`, `.envrc` (direnv) — but not the committed templates.
  { prefix: ".env", except: [".env.example", ".env.sample", ".env.template"], why: ".env files usually hold secrets" },
  ...["id_rsa", "id_dsa", "id_ecdsa", "id_ed25519"].map((prefix) => ({ prefix, exceptEnding: ".pub", why: "a private key file" })),
  ...[".pem", ".key", ".p12", ".pfx", ".keystore", ".jks"].map((suffix) => ({ suffix, why: "a key or certificate file" })),
  // Package-manager and CLI token files, wherever they are (a project's own `.npmrc` often
  // carries an `_authToken`; composer's `auth.json` and Playwright's stored `auth.json` hold
  // tokens and cookies).
  {
    names: [".npmrc", ".yarnrc.yml", ".pypirc", "pip.conf", ".netrc", "_netrc", ".git-credentials", ".pgpass", ".my.cnf", ".s3cfg", ".boto", ".htpasswd", ".vault-token", ".terraformrc", "credentials.tfrc.json", "auth.json", "credentials", "credentials.toml", "credentials.json"],
    why: "a file that usually holds tokens or passwords",
  },
  { names: ["nuget.config"], nocase: true, why: "NuGet's config, which can hold feed credentials" },
  { suffix: ".tfstate", why: "Terraform state, which holds secrets in plain text" },
  { suffix: ".tfstate.backup", why: "Terraform state, which holds secrets in plain text" },
  { names: HISTORY_NAMES, why: "a shell or REPL history (commands typed with tokens in them)" },
  // Browser stores, wherever a profile was copied to.
  { names: ["Cookies", "Login Data", "Web Data", "cookies.sqlite", "logins.json", "key3.db", "key4.db"], why: "a browser's cookie or password store" },
];

export { HOME_SECRET_GROUPS, HOME_SECRETS } from "./home-secrets.js";

/** deepcode's credentials file, relative to its home. */
export const CREDENTIALS_FILE = "credentials";

/** Why a file of this name is a secret, or null. */
export function secretNameReason(name: string): string | null {
  for (const p of SECRET_NAMES) if (nameMatches(p, name)) return p.why;
  return null;
}

function nameMatches(p: SecretNamePattern, name: string): boolean {
  if (p.names !== undefined) return p.nocase ? p.names.some((n) => n.toLowerCase() === name.toLowerCase()) : p.names.includes(name);
  if (p.prefix !== undefined) {
    if (!name.startsWith(p.prefix)) return false;
    if (p.except?.includes(name)) return false;
    return p.exceptEnding === undefined || !name.endsWith(p.exceptEnding);
  }
  return p.suffix !== undefined && name.toLowerCase().endsWith(p.suffix.toLowerCase());
}

export interface SecretLocation {
  /** Absolute, `/`-separated; the location and everything below it. */
  path: string;
  why: string;
  /** deepcode's home (DEEPCODE_HOME, or the default ~/.deepcode). */
  deepcodeHome?: boolean;
  /** Folders below it that a sandboxed command may read, never write: the installed plugins'
   *  files (public code the person installed), so a plugin's command or skill can run its own
   *  scripts (`"${CLAUDE_PLUGIN_ROOT}/scripts/setup.sh"`). Tools still treat them as the rest
   *  of the location: the Read tool asks, Grep leaves them out. */
  sandboxReadable?: string[];
}

/**
 * The secrets that live at fixed places: the home folder's credential places and deepcode's
 * home as a whole. `deepcodeHome` is DEEPCODE_HOME when set; the default `<home>/.deepcode`
 * counts as well whatever it is (another deepcode run, with another DEEPCODE_HOME or none,
 * keeps its transcripts and credentials there).
 */
export function secretLocations(home: string, deepcodeHome?: string): SecretLocation[] {
  const h = trimSlash(home);
  const out: SecretLocation[] = [];
  for (const g of HOME_SECRET_GROUPS) for (const s of g.paths) out.push({ path: `${h}/${s}`, why: `~/${s} ${g.why}` });
  const homes = [`${h}/.deepcode`];
  if (deepcodeHome !== undefined && trimSlash(deepcodeHome) !== homes[0]) homes.unshift(trimSlash(deepcodeHome));
  for (const d of homes) out.push({ path: d, why: `${d === `${h}/.deepcode` ? "~/.deepcode" : d} is deepcode's home (other sessions, the usage ledger, credentials, history)`, deepcodeHome: true, sandboxReadable: [`${d}/plugins/installed`] });
  return out;
}

/** Another process's (or deepcode's own) environment and memory: `/proc/<pid>/environ`, `mem`. */
const PROC_SECRET = /^\/proc\/(?:self|thread-self|\d+)(?:\/task\/\d+)?\/(?:environ|mem)$/;

/** Why an absolute path under /proc is a secret, or null. */
export function procSecretReason(path: string): string | null {
  return PROC_SECRET.test(path) ? "a process's environment or memory (it holds tokens and keys)" : null;
}

/**
 * Project paths whose change would loosen the rules or run code later, relative to the project
 * root. `tree`: the folder and everything in it; `names`: files directly in the folder `path`
 * whose name matches (`""`: the root itself); otherwise exactly that file.
 */
export interface ProtectedPath {
  path: string;
  tree?: boolean;
  names?: RegExp;
  why: string;
  /** The sandbox creates it (empty) when it is missing, so that it can be bound read-only. */
  create?: boolean;
  /** With `names`: one name it matches (docs and tests). */
  example?: string;
  /** A folder other tools keep their files in too (`.config/`): the sandbox stands in no empty
   *  read-only folder for it when it is missing (mods/sandbox/placeholders.ts), it watches. */
  shared?: boolean;
}

export const PROTECTED_PROJECT_PATHS: readonly ProtectedPath[] = [
  // Settings, custom commands (a command's `allowed-tools` can grant Bash), skills, agents.
  { path: ".deepcode", tree: true, why: "holds deepcode's project settings, commands, skills and agents", create: true },
  { path: ".claude", names: /^settings.*\.json$/, why: "holds Claude Code's permission rules and hooks", example: "settings.json" },
  { path: ".claude", names: /^hookify\..*\.md$/, why: "is a hookify rule (it blocks or warns about tool calls)", example: "hookify.x.local.md" },
  { path: ".claude/commands", tree: true, why: "holds custom commands, which can grant tools" },
  { path: ".claude/skills", tree: true, why: "holds skills, whose instructions and scripts the model follows" },
  { path: ".claude/agents", tree: true, why: "holds subagents, with the tools they may use" },
  { path: ".claude/hooks", tree: true, why: "holds the scripts a project's hooks run, outside the sandbox, on every matching tool call" },
  { path: ".claude-plugin", tree: true, why: "declares a plugin (its hooks and MCP servers run programs)" },
  { path: ".mcp.json", why: "starts MCP servers (programs) in later sessions" },
  { path: ".git/config", why: "can make git run programs" },
  { path: ".git/hooks", tree: true, why: "holds programs git runs" },
  { path: ".git/config.worktree", why: "can make git run programs (per-worktree config)" },
  { path: ".git/info/attributes", why: "picks the filter and diff drivers git runs" },
  // Code that runs later without the person naming it (issue 35, item 6). Git hook managers:
  // husky (≤ 8 runs `.husky/<hook>` through `core.hooksPath=.husky`; ≥ 9 sets it to
  // `.husky/_`, whose stubs run `.husky/<hook>`: the whole folder either way; a custom folder
  // is covered through core.hooksPath, mods/sandbox/protect.ts), husky 4's own config files,
  // lefthook (every name and format it reads, the local variants and its script folders),
  // pre-commit (the config its installed `.git/hooks/pre-commit` obeys at every commit),
  // simple-git-hooks and lint-staged (their own files; their package.json keys are
  // PACKAGE_HOOK_KEYS, package-scripts.ts).
  { path: ".husky", tree: true, why: "holds husky's git hooks (git runs them at the next commit)" },
  { path: "", names: /^(?:\.huskyrc(?:\.(?:json|js|cjs|mjs|ya?ml))?|husky\.config\.(?:js|cjs|mjs))$/, why: "is husky 4's config (the git hooks it runs)", example: ".huskyrc.json" },
  { path: "", names: /^\.?lefthook(?:-local)?\.(?:ya?ml|json|jsonc|toml)$/, why: "is lefthook's config (the commands its git hooks run)", example: "lefthook.yml" },
  { path: ".config", names: /^lefthook(?:-local)?\.(?:ya?ml|json|jsonc|toml)$/, why: "is lefthook's config (the commands its git hooks run)", example: "lefthook.yml", shared: true },
  { path: ".lefthook", tree: true, why: "holds lefthook's hook scripts" },
  { path: ".lefthook-local", tree: true, why: "holds lefthook's local hook scripts" },
  { path: "", names: /^\.pre-commit-config\.ya?ml$/, why: "is pre-commit's config (its git hook runs what it lists)", example: ".pre-commit-config.yaml" },
  { path: "", names: /^\.?simple-git-hooks\.(?:c?js|mjs|json)$/, why: "is simple-git-hooks' config (the git hooks it installs)", example: ".simple-git-hooks.json" },
  { path: "", names: /^(?:\.lintstagedrc(?:\.(?:json|ya?ml|c?js|mjs))?|lint-staged\.config\.(?:c?js|mjs))$/, why: "is lint-staged's config (commands a git hook runs at each commit)", example: ".lintstagedrc.json" },
  // Editors: settings and tasks they obey on opening the folder, without asking (VS Code's
  // `git.path`, a `runOn: folderOpen` task; JetBrains run configurations and startup tasks;
  // a dev container's `initializeCommand`, which runs on the host).
  { path: ".vscode", tree: true, why: "holds VS Code's settings and tasks (a task can run on opening the folder)" },
  { path: ".idea", tree: true, why: "holds JetBrains settings (run configurations, startup tasks)" },
  { path: ".devcontainer", tree: true, why: "configures a dev container (initializeCommand runs on your machine)" },
  { path: ".devcontainer.json", why: "configures a dev container (initializeCommand runs on your machine)" },
  // Left out on purpose (docs/permissions.md, containment): `.envrc` (direnv refuses a changed
  // one until `direnv allow`; it is also a secret name, hidden in the sandbox) and CI workflows
  // (`.github/workflows`: they run after a push, and pushing asks).
];

/**
 * The protected entry a change at `rel` falls in — relative to the project root, `/`-separated,
 * no `.` or `..` segments — or null. `entry` is the entry's own path (`.deepcode`, `.mcp.json`,
 * `.claude/settings.local.json`): an allow rule lifts the protection only if it names that path
 * or a path inside it.
 *
 * Names are compared the way some file system could resolve them, on every platform (a
 * case-insensitive volume can be mounted on Linux too, and a false ask costs a keystroke):
 * without case, without the trailing dots and spaces Windows drops, without an NTFS stream
 * suffix (`::$DATA`), in Unicode NFC (macOS volumes ignore the normalisation form), without the
 * invisible code points HFS+ ignores (git's CVE-2014-9390 list), and with 8.3 short names
 * (`GIT~1`) taken as the names they can stand for.
 */
export function protectedProjectEntry(rel: string): { entry: string; why: string } | null {
  const segs = rel.split("/").map(foldName);
  for (const { e, base, names } of FOLDED) {
    if (names) {
      if (segs.length === base.length + 1 && base.every((b, i) => sameName(segs[i], b)) && names.test(segs[segs.length - 1])) {
        const name = rel.slice(rel.lastIndexOf("/") + 1);
        return { entry: rel, why: `${e.path === "" ? name : `${e.path}/${name}`} ${e.why}` };
      }
    } else if ((segs.length === base.length || (e.tree === true && segs.length > base.length)) && base.every((b, i) => sameName(segs[i], b))) {
      return { entry: e.path, why: `${e.tree ? `${e.path}/` : e.path} ${e.why}${rel.startsWith(e.path) ? "" : ` (${rel.split("/").slice(0, base.length).join("/")} names it on a case-insensitive or Windows file system)`}` };
    }
  }
  return gitControlEntry(rel);
}

/** A git directory's files that make git run programs or look elsewhere for them: `config`
 *  (aliases, `core.fsmonitor`, `core.sshCommand`, filters), `config.worktree`, `hooks/`,
 *  `info/attributes` (which filter and diff drivers run), and `commondir`/`gitdir` (where a
 *  worktree's or module's git directory, config included, really is). */
const GIT_CONTROL_FILES = ["config", "config.worktree", "commondir", "gitdir"];

/**
 * Every git control file below the root, at any depth: in the project's `.git`, in a nested
 * repository's (`vendor/x/.git/config`: git run in that folder obeys it), in a submodule's or a
 * worktree's git directory (`.git/modules/<name>/…`, nested modules too, `.git/worktrees/<id>/…`),
 * and a `.git` that is a file (a gitlink: it names the git directory git uses there). Names are
 * folded as for the list above. A file in a module's own object store that happens to be named
 * like one (`.git/modules/hooks/…` for a submodule named `hooks`) asks too: a false ask costs a
 * keystroke, a missed one runs a program.
 */
export function gitControlEntry(rel: string): { entry: string; why: string } | null {
  const raw = rel.split("/");
  const segs = raw.map(foldName);
  for (let i = 0; i < segs.length; i++) {
    if (!sameName(segs[i], ".git")) continue;
    const at = (n: number): string => raw.slice(0, n).join("/");
    if (i === segs.length - 1) return { entry: at(i + 1), why: `${at(i + 1)} names the git directory git uses there (a .git file points it anywhere)` };
    const rest = segs.slice(i + 1);
    // Where a git directory's control files may stand: the .git folder itself, or below a
    // module's or a worktree's folder in it.
    const placed = (k: number): boolean => k === 0 || rest[0] === "modules" || rest[0] === "worktrees";
    for (let k = 0; k < rest.length; k++) {
      const entry = at(i + 2 + k);
      if (rest[k] === "hooks" && placed(k)) return { entry, why: `${entry}/ holds programs git runs` };
      if (k === rest.length - 1 && GIT_CONTROL_FILES.includes(rest[k]) && placed(k)) return { entry, why: `${entry} can make git run programs or read another git directory` };
      if (k === rest.length - 2 && rest[k] === "info" && rest[k + 1] === "attributes" && placed(k)) return { entry: at(i + 3 + k), why: `${at(i + 3 + k)} picks the filter and diff drivers git runs` };
    }
  }
  return null;
}

/** `core.hooksPath` in a git config file's text (the last one set wins, as git reads it), or
 *  undefined. Quotes and backslash escapes as git writes them; `include` files are not
 *  followed. The folder it names holds programs git runs, so it is protected like `.git/hooks`
 *  (the permission gate resolves it against the project root). */
export function gitHooksPath(configText: string): string | undefined {
  let section = "";
  let found: string | undefined;
  for (const line of configText.split(/\r?\n/)) {
    const head = /^\s*\[\s*([A-Za-z0-9.-]+)(?:\s+"[^"]*")?\s*\]\s*(.*)$/.exec(line);
    let body = line;
    if (head) {
      section = head[1].toLowerCase();
      body = head[2];
    }
    const kv = /^\s*([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*)$/.exec(body);
    if (!kv || section !== "core" || kv[1].toLowerCase() !== "hookspath") continue;
    found = gitValue(kv[2]);
  }
  return found === "" ? undefined : found;
}

/** A git config value: quotes removed, escapes read, a comment outside quotes dropped. */
function gitValue(v: string): string {
  let out = "";
  let quoted = false;
  for (let i = 0; i < v.length; i++) {
    const c = v[i];
    if (c === '"') quoted = !quoted;
    else if (c === "\\" && i + 1 < v.length) {
      const n = v[++i];
      out += n === "n" ? "\n" : n === "t" ? "\t" : n;
    } else if (!quoted && (c === "#" || c === ";")) break;
    else out += c;
  }
  return out.trim();
}

/** Code points HFS+ ignores in names (git's `is_hfs_dotgit` list). */
const IGNORABLE = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;

/** The protected entries with their folded segments, worked out once. */
const FOLDED = PROTECTED_PROJECT_PATHS.map((e) => ({ e, base: e.path === "" ? [] : e.path.split("/").map(foldName), names: e.names ? new RegExp(e.names.source, "i") : null }));

/** One path segment as a forgiving file system would compare it. */
export function foldName(seg: string): string {
  let s = seg.replace(IGNORABLE, "").normalize("NFC");
  s = s.replace(/::?\$[a-z_]+$/i, ""); // NTFS stream suffix (`::$DATA`, `:$INDEX_ALLOCATION`)
  const stripped = s.replace(/[. ]+$/, ""); // Windows drops trailing dots and spaces
  return (stripped === "" ? s : stripped).toLowerCase();
}

/** Folded names equal, or `given` is an 8.3 short name (`GIT~1`, `MCPJSO~1.JSO`) the protected
 *  name can have: its first up-to-six characters (dots dropped) then `~N`. */
function sameName(given: string, protectedName: string): boolean {
  if (given === protectedName) return true;
  const m = /^([^~.]{1,6})~[0-9]+(?:\.[^.]{0,3})?$/.exec(given);
  return m !== null && protectedName.replace(/\./g, "").startsWith(m[1]);
}

function trimSlash(p: string): string {
  return p.length > 1 ? p.replace(/\/+$/, "") : p;
}
