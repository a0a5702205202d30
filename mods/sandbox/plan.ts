// The sandbox's grant plan, platform-neutral (issue #36, item 2): what one command is given —
// the system and the toolchains read-only, the workspace read-write, a private home, private
// temp folders, the secrets inside what is granted hidden, the protected project paths kept
// read-only, which network — worked out once from the same inputs bwrap's argv was built from
// (WrapOptions). Each renderer turns it into its own mechanism's terms: bwrap.ts into bubblewrap
// arguments (byte for byte what it built before the plan existed), seatbelt.ts into a macOS
// `sandbox-exec` profile.
//
// Order is part of the plan: a renderer that layers (bubblewrap's mounts, Seatbelt's "the last
// rule that matches decides") emits the lists in the order given — grants first, then what is
// hidden over them (each with what is granted again inside it), then the protected paths.

import { existsSync, lstatSync, mkdirSync, readdirSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { homedir, tmpdir } from "node:os";
import { PROTECTED_PROJECT_PATHS, secretLocations } from "../../src/contract/protected.js";
import { existingGuarded, guardedPaths, type Guarded } from "./protect.js";
import { projectSecrets } from "./secrets.js";
import { AGENT_ENV, hostSockets } from "./sockets.js";
import { secretObjects } from "./git-objects.js";
import { emptyStandIn, inside, SYSTEM_DIRS, SYSTEM_SECRETS, toolchainDirs } from "./grant.js";
import type { Inherited } from "./inherit.js";

/** A system folder as the sandbox shows it: read-only, or (`link`) the same symlink
 *  (`/bin -> usr/bin`, macOS's `/etc -> private/etc`) with the link's text. */
export interface SystemGrant {
  path: string;
  link?: string;
}

/** What a hidden path is on the host, so a renderer can stand in for it: a folder (an empty one
 *  in its place), a file (the empty read-only stand-in file), or a host socket (`/dev/null`). */
export type HiddenKind = "folder" | "file" | "socket";

/** Why a path is hidden: a credential place of the home folder or deepcode's home, a system
 *  secret, a project secret (`.env` …) or a file a settings read deny names, git's copy of one,
 *  a host socket. */
export type HiddenWhy = "home" | "system" | "project" | "git-copy" | "socket";

export interface HiddenPath {
  path: string;
  kind: HiddenKind;
  why: HiddenWhy;
  /** Folders inside it granted read-only again (installed plugins inside deepcode's home). */
  regrant?: string[];
}

/** The network a command reaches: none; everything (`resolv`: the resolver's file where
 *  /etc/resolv.conf leads into /run, granted read-only); or only deepcode's filtering proxy
 *  (settings `sandbox.network.allowedDomains`) — on Linux through the channel (forward.ts), where
 *  a TCP listener exists at `port` on localhost (Seatbelt's only way to name it). */
export type PlanNetwork = { kind: "none" } | { kind: "all"; resolv: string | null } | { kind: "proxy"; port: number | null };

export interface SandboxPlan {
  /** The workspace root, the working folder, and the person's $HOME path. */
  root: string;
  cwd: string;
  home: string;
  system: SystemGrant[];
  /** Private temp folders, empty at each command and writable ($TMPDIR's folder too when it
   *  lies elsewhere). */
  tmp: string[];
  /** The private home (grant.ts privateHome) and where it is shown (`at`: $HOME); null when the
   *  workspace is or holds the home (its secret places are hidden instead) or there is none. */
  privateHome: { path: string; at: string } | null;
  /** Granted read-only, in order: toolchains, installed plugins, `allowRead` folders — and, in
   *  plan mode (`readOnly`), the workspace and the extra folders last. */
  readOnly: string[];
  /** Granted read-write (empty in plan mode). */
  readWrite: string[];
  /** Hidden over what is granted, in order. */
  hidden: HiddenPath[];
  /** The empty read-only regular file that stands in for a hidden file (grant.ts emptyStandIn). */
  standIn: string;
  /** The protected paths inside the read-write folders that exist now (read-only binds)… */
  protected: string[];
  /** …and every protected place there, existing or not, for a renderer that can refuse the
   *  creation of a path that does not exist (Seatbelt can; bubblewrap cannot: protect.ts). */
  guarded: Guarded[];
  network: PlanNetwork;
  /** Variables taken out of the command's environment (agent sockets: sockets.ts). */
  env: { unset: readonly string[] };
}

/** What a command's plan is worked out from (bwrap.ts WrapOptions adds the bwrap binary). */
export interface PlanInput {
  root: string;
  /** deepcode's home folder (its credentials file is hidden). */
  deepcodeHome?: string;
  /** Extra writable folders: absolute, `~/…`, or relative to the root. Missing ones are skipped. */
  writable: readonly string[];
  network: boolean;
  cwd: string;
  home?: string;
  tmp?: string;
  /** Nothing writable but the private temp folders (plan mode): the workspace and the extra
   *  folders are granted read-only. */
  readOnly?: boolean;
  /** Where agent sockets are named (default: this process's environment). */
  env?: NodeJS.ProcessEnv;
  /** The private home (grant.ts privateHome), shown at `home`; none: the home is empty. */
  privateHome?: string;
  /** Folders granted read-only (settings `sandbox.filesystem.allowRead`), real paths. */
  readable?: readonly string[];
  /** The PATH whose toolchains are granted (default: this process's), or the toolchain folders
   *  themselves, worked out once (grant.ts toolchainDirs). */
  path?: string;
  tools?: readonly string[];
  /** The seccomp program's path (Probe.seccomp): handed to bwrap as `--seccomp 3`. Without it,
   *  host sockets are hidden by path (sockets.ts). */
  seccomp?: string | null;
  /** With `network: false`, the channel's descriptors (channel.ts; the allowedDomains proxy, a
   *  job's served ports): the command
   *  runs behind the forwarder (forward.ts). */
  channel?: readonly Inherited[];
  /** Whose system folders and system secrets are granted and hidden (default: this machine's). */
  platform?: NodeJS.Platform;
  /** Instead of the platform's lists (tests). */
  systemDirs?: readonly string[];
  systemSecrets?: readonly string[];
  /** With `network: false`: the filtering proxy's port on localhost, where it listens on TCP;
   *  null: the proxy is in use, with no port (allowedDomains where it has none). */
  proxyPort?: number | null;
  /** The settings' read denies (PluginApi.readDenied): the files they name in what is granted
   *  and walked are hidden as project secrets are. */
  denied?: (path: string) => string | null;
  /** false: only work out the plan, creating nothing (`.deepcode/`, the stand-in file): for a
   *  profile printed, not run (`deepcode sandbox --profile`). */
  create?: boolean;
}

/** The folders a sandboxed command may write, real paths, the root first. */
export function writableDirs(root: string, extra: readonly string[], home: string = homedir()): string[] {
  const out: string[] = [];
  for (const d of [root, ...extra]) {
    const abs = d === "~" || d.startsWith("~/") ? join(home, d.slice(1)) : resolve(root, d);
    if (!existsSync(abs)) continue;
    const real = realpathSync(abs);
    if (!out.includes(real)) out.push(real);
  }
  return out;
}

/**
 * Create the protected folders the contract marks `create` (`.deepcode/`) in the workspace root
 * when they are missing — empty — so they can be bound read-only: bwrap can only bind over a
 * path that exists, and a missing `.deepcode/` would let a sandboxed command create
 * `.deepcode/settings.json` (or a command file) that later sessions obey. Nothing else is
 * created (not `.mcp.json`, not `.claude/`): an empty file or a folder of another tool would be
 * a trace, and deepcode only reads its own folder's settings and commands.
 */
export function ensureProtectedFolders(root: string): void {
  for (const e of PROTECTED_PROJECT_PATHS) {
    if (!e.create) continue;
    try {
      mkdirSync(join(root, e.path));
    } catch {
      // EEXIST (already there, as a folder or anything else: bound as it is); EACCES or EROFS:
      // the sandboxed command, running as the same user, cannot create it either; ENOENT: no
      // workspace root to protect.
    }
  }
}

/** macOS's system, for a Seatbelt profile: programs, libraries, frameworks, /etc (a link to
 *  /private/etc), Homebrew and MacPorts (/opt), the folders the shared libraries and `/bin/sh`
 *  (/private/var/select) read, the time zones, Xcode. */
export const DARWIN_SYSTEM_DIRS = ["/usr", "/bin", "/sbin", "/System", "/Library", "/etc", "/private/etc", "/opt", "/private/var/db/timezone", "/private/var/db/dyld", "/private/var/select", "/Applications/Xcode.app"];

/** macOS's own secrets inside that system: the keychains, password hashes, host keys. */
export const DARWIN_SYSTEM_SECRETS = ["/Library/Keychains", "/private/etc/master.passwd", "/private/etc/ssh/ssh_host_rsa_key", "/private/etc/ssh/ssh_host_ecdsa_key", "/private/etc/ssh/ssh_host_ed25519_key", "/private/etc/sudoers.d", "/private/etc/krb5.keytab"];

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false; // absent: nothing to show
  }
}

function realOrNull(p: string): string | null {
  try {
    return realpathSync(p);
  } catch {
    return null; // absent or dangling
  }
}

/** What is in `dir` but not on the way to a writable folder inside it: each entry that holds
 *  none is listed whole; one that holds some is looked into. */
function around(dir: string, writable: readonly string[]): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return []; // unreadable: nothing of it is shown
  }
  return names.flatMap((n) => {
    const p = join(dir, n);
    if (writable.some((w) => w === p)) return [];
    return writable.some((w) => inside(w, p)) ? around(p, writable) : [p];
  });
}

/** How `path` is hidden where it exists (a folder or a file); null when absent (nothing to
 *  hide, and a mount point would leave a trace on the host). */
function kindOf(path: string): "folder" | "file" | null {
  try {
    return statSync(path).isDirectory() ? "folder" : "file";
  } catch {
    return null;
  }
}

/** A system folder where the host has one: the same symlink, or the folder. */
function systemGrant(dir: string): SystemGrant | null {
  try {
    const st = lstatSync(dir);
    if (st.isSymbolicLink()) return { path: dir, link: readlinkSync(dir) };
    return st.isDirectory() ? { path: dir } : null;
  } catch {
    return null; // not on this system
  }
}

/** The plan for one command. Creates `.deepcode/` in the root when missing and the empty
 *  stand-in file (as bwrap's argv always did): both must exist to be granted read-only. */
export function planFor(o: PlanInput): SandboxPlan {
  const create = o.create !== false;
  if (create) ensureProtectedFolders(o.root);
  const darwin = (o.platform ?? process.platform) === "darwin";
  const home = o.home ?? homedir();
  const writable = writableDirs(o.root, o.writable, home);
  const readable = (o.readable ?? []).filter((r) => !writable.some((w) => inside(r, w)));
  const deepcodeHome = o.deepcodeHome ?? join(home, ".deepcode");
  const standIn = create ? emptyStandIn(deepcodeHome) : join(deepcodeHome, "sandbox", "empty");
  const system = (o.systemDirs ?? (darwin ? DARWIN_SYSTEM_DIRS : SYSTEM_DIRS)).map(systemGrant).filter((g): g is SystemGrant => g !== null);
  const tmpFolders = ["/tmp", "/var/tmp", "/run"];
  const tmp = o.tmp ?? tmpdir();
  // A $TMPDIR outside /tmp gets a private folder of its own — unless it lies inside a writable
  // folder (an empty one there would hide part of the workspace).
  if (tmp !== "/tmp" && isAbsolute(tmp) && existsSync(tmp) && !inside(tmp, "/tmp") && !writable.some((w) => inside(tmp, w))) tmpFolders.push(realpathSync(tmp));
  let network: PlanNetwork = { kind: "none" };
  if (o.network) {
    const resolv = realOrNull("/etc/resolv.conf");
    network = { kind: "all", resolv: resolv && inside(resolv, "/run") ? resolv : null };
  } else if ((o.channel && o.channel.length > 0) || o.proxyPort !== undefined) network = { kind: "proxy", port: o.proxyPort ?? null };
  // The private home at the person's $HOME path — unless the home is itself granted.
  const homeGranted = writable.some((w) => inside(home, w));
  const privateHome = !homeGranted && o.privateHome ? { path: o.privateHome, at: home } : null;
  const tools = o.tools ?? toolchainDirs(o.path ?? process.env.PATH ?? "", home, writable);
  const plugins = secretLocations(home, o.deepcodeHome).flatMap((l) => l.sandboxReadable ?? []).filter(isDir);
  const readOnlyGrants = [...tools, ...plugins, ...readable].filter((d, i, all) => all.indexOf(d) === i && !writable.some((w) => inside(d, w)));
  // Hidden over the grants: what a grant holds of the home folder's credential places and of
  // deepcode's home; a place that holds a writable folder is not hidden whole (that would hide
  // the workspace): of deepcode's home, all but the way to it is.
  const granted = [...writable, ...readOnlyGrants];
  const hidden: HiddenPath[] = [];
  for (const l of secretLocations(home, o.deepcodeHome)) {
    const holds = writable.some((w) => inside(w, l.path));
    if (holds && l.deepcodeHome) {
      // All but the way to what is granted inside it: a writable folder (a plugin's data folder,
      // for its own hooks and servers), and the read-only grants (installed plugins' files).
      for (const p of around(l.path, granted.filter((g) => g !== l.path && inside(g, l.path)))) {
        const kind = kindOf(p);
        if (kind) hidden.push({ path: p, kind, why: "home" });
      }
      continue;
    }
    if (holds || !granted.some((g) => inside(l.path, g))) continue;
    const kind = kindOf(l.path);
    if (!kind) continue;
    const regrant = (l.sandboxReadable ?? []).filter(isDir);
    hidden.push({ path: l.path, kind, why: "home", ...(regrant.length > 0 ? { regrant } : {}) });
  }
  const homeHidden = hidden.map((h) => h.path);
  for (const p of o.systemSecrets ?? (darwin ? DARWIN_SYSTEM_SECRETS : SYSTEM_SECRETS)) {
    const kind = kindOf(p);
    if (kind) hidden.push({ path: p, kind, why: "system" });
  }
  // Project secrets (`.env`, keys …) and git's copies of them, in what is granted — not inside
  // a place already hidden (there is nothing to stand in over).
  const secrets = projectSecrets([...writable, ...readable], o.denied);
  for (const p of secrets) if (!homeHidden.some((h) => inside(p, h))) hidden.push({ path: p, kind: "file", why: "project" });
  for (const p of secretObjects(writable, secrets)) if (!homeHidden.some((h) => inside(p, h))) hidden.push({ path: p, kind: "file", why: "git-copy" });
  // Without the seccomp filter, unix sockets bound on the host inside what is granted are hidden
  // where deepcode knows them (sockets.ts).
  for (const p of o.seccomp ? [] : hostSockets(o.env ?? process.env)) {
    if (homeHidden.some((h) => inside(p, h)) || !granted.some((g) => inside(p, g))) continue;
    hidden.push({ path: p, kind: "socket", why: "socket" });
  }
  const readOnly = o.readOnly ? [...readOnlyGrants, ...writable] : readOnlyGrants;
  const readWrite = o.readOnly ? [] : writable;
  const guarded = readWrite.flatMap((w) => guardedPaths(w));
  return {
    root: o.root,
    cwd: o.cwd,
    home,
    system,
    tmp: tmpFolders,
    privateHome,
    readOnly,
    readWrite,
    hidden,
    standIn,
    // Not inside a hidden folder: a read-only bind of the host's path there would uncover it
    // again (the person's home as a writable folder holds `.deepcode/`, deepcode's home).
    protected: guarded.flatMap(existingGuarded).filter((p) => !hidden.some((h) => h.kind === "folder" && inside(p, h.path))),
    guarded,
    network,
    env: { unset: AGENT_ENV },
  };
}
