// What deepcode protects, in one list. The permission gate (src/cli/permissions/paths.ts), the
// Bash sandbox (mods/sandbox/bwrap.ts) and Grep (src/builtins/grep-secrets.ts) all read it here,
// so what one of them treats as a secret or a protected file the others do too.
//
// - Secrets: file names that usually hold credentials (`.env…`, private keys, key files), the
//   folders in the home folder that hold credentials (~/.ssh …), and deepcode's own
//   `credentials` file in its home (DEEPCODE_HOME, else ~/.deepcode). Reading one asks; the
//   sandbox hides the home ones; Grep never reads any of them.
// - Protected project paths: what a change to would loosen the rules or run code later. A write
//   there asks even under an allow rule (unless the rule names the path); the sandbox keeps them
//   read-only.
//
// Paths here are `/`-separated strings: the contract imports nothing, node:path included.

/** A file name pattern: names that start with `prefix`, or that end with `suffix` (compared
 *  without regard to case), minus the exceptions. */
export interface SecretNamePattern {
  prefix?: string;
  suffix?: string;
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
];

/**
 * Folders and files in the home folder that hold credentials, relative to it. `.docker` as a
 * whole, not only `.docker/config.json`: its `contexts/` and `machine/` keep TLS keys too.
 */
export const HOME_SECRETS: readonly string[] = [".ssh", ".aws", ".config/gcloud", ".azure", ".gnupg", ".kube", ".docker", ".netrc", ".git-credentials", ".pypirc"];

/** deepcode's credentials file, relative to its home. */
export const CREDENTIALS_FILE = "credentials";

/** Why a file of this name is a secret, or null. */
export function secretNameReason(name: string): string | null {
  for (const p of SECRET_NAMES) if (nameMatches(p, name)) return p.why;
  return null;
}

function nameMatches(p: SecretNamePattern, name: string): boolean {
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
}

/**
 * The secrets that live at fixed places: the home folder's credential folders and deepcode's
 * credentials file. `deepcodeHome` is DEEPCODE_HOME when set; it defaults to `<home>/.deepcode`.
 */
export function secretLocations(home: string, deepcodeHome?: string): SecretLocation[] {
  const h = trimSlash(home);
  const out = HOME_SECRETS.map((s) => ({ path: `${h}/${s}`, why: `~/${s} holds credentials` }));
  out.push({ path: `${trimSlash(deepcodeHome ?? `${h}/.deepcode`)}/${CREDENTIALS_FILE}`, why: "deepcode's credentials file" });
  return out;
}

/**
 * Project paths whose change would loosen the rules or run code later, relative to the project
 * root. `tree`: the folder and everything in it; `names`: files directly in the folder `path`
 * whose name matches; otherwise exactly that file.
 */
export interface ProtectedPath {
  path: string;
  tree?: boolean;
  names?: RegExp;
  why: string;
  /** The sandbox creates it (empty) when it is missing, so that it can be bound read-only. */
  create?: boolean;
}

export const PROTECTED_PROJECT_PATHS: readonly ProtectedPath[] = [
  // Settings, custom commands (a command's `allowed-tools` can grant Bash), skills, agents.
  { path: ".deepcode", tree: true, why: "holds deepcode's project settings, commands, skills and agents", create: true },
  { path: ".claude", names: /^settings.*\.json$/, why: "holds Claude Code's permission rules and hooks" },
  { path: ".claude/commands", tree: true, why: "holds custom commands, which can grant tools" },
  { path: ".claude/skills", tree: true, why: "holds skills, whose allowed-tools can grant tools" },
  { path: ".claude/agents", tree: true, why: "holds subagent definitions (their prompts, tools and models)" },
  { path: ".mcp.json", why: "starts MCP servers (programs) in later sessions" },
  { path: ".git/config", why: "can make git run programs" },
  { path: ".git/hooks", tree: true, why: "holds programs git runs" },
];

/**
 * The protected entry a change at `rel` falls in — relative to the project root, `/`-separated,
 * no `.` or `..` segments — or null. `entry` is the entry's own path (`.deepcode`, `.mcp.json`,
 * `.claude/settings.local.json`): an allow rule lifts the protection only if it names that path
 * or a path inside it. With `nocase` (macOS, Windows) names compare without case.
 */
export function protectedProjectEntry(rel: string, nocase = false): { entry: string; why: string } | null {
  const p = nocase ? rel.toLowerCase() : rel;
  for (const e of PROTECTED_PROJECT_PATHS) {
    const base = nocase ? e.path.toLowerCase() : e.path;
    if (e.names) {
      const slash = p.lastIndexOf("/");
      if (slash >= 0 && p.slice(0, slash) === base && new RegExp(e.names.source, nocase ? "i" : "").test(p.slice(slash + 1))) {
        return { entry: rel, why: `${e.path}/${rel.slice(slash + 1)} ${e.why}` };
      }
    } else if (p === base || (e.tree === true && p.startsWith(`${base}/`))) {
      return { entry: e.path, why: `${e.tree ? `${e.path}/` : e.path} ${e.why}` };
    }
  }
  return null;
}

function trimSlash(p: string): string {
  return p.length > 1 ? p.replace(/\/+$/, "") : p;
}
