// bubblewrap: finding it, checking once that it can build a sandbox here, and the argv that
// wraps a command. Linux only; everything here is synchronous and cached per process.
//
// The sandbox a command gets starts from nothing (bwrap's new root is an empty tmpfs) and is
// given what the work needs (grant.ts says what and why):
//   - the system folders read-only, less the system's own secrets; a minimal /dev (null, zero,
//     random, tty, shm …) and a /proc of its own PID namespace; private, empty /tmp, /var/tmp,
//     /run (and $TMPDIR when it lies elsewhere);
//   - the toolchains the PATH points into read-only; a private home per project (persistent
//     caches, a sanitised git config) at the person's $HOME path; the installed plugins' files
//     read-only; folders `sandbox.filesystem.allowRead` names read-only;
//   - the workspace root and `permissions.additionalDirectories` / `sandbox.filesystem.allowWrite`
//     read-write (read-only with `readOnly`, plan mode);
//   - over what is granted: the home folder's credential places and deepcode's home hidden
//     (the contract's list, src/contract/protected.ts), project secrets (`.env*`, keys, token
//     files, an `.npmrc` with a token: secrets.ts) and git's copies of them replaced by an empty
//     read-only regular file;
//   - no unix socket can be created (a seccomp filter, seccomp.ts), so no host socket is
//     reachable whatever its name; where there is no filter (another architecture, or it does
//     not load), the host sockets deepcode knows of inside a grant are hidden by path (sockets.ts);
//   - files in the workspace whose change would loosen the rules or run code later (the
//     contract's protected project paths and git's other control files, protect.ts) read-only
//     where they exist — and .deepcode/ always: it is created (empty) in the workspace root
//     first; what a command creates where nothing existed is undone after it (protect.ts);
//   - every namespace unshared, the network included (only loopback of its own, so not even
//     127.0.0.1 of the host is reachable) unless network is allowed; with
//     `sandbox.network.allowedDomains` commands reach the filtering proxy over a channel
//     (proxy.ts, channel.ts, forward.ts); a background job's server is reached from the host's
//     loopback over one too (serve.ts);
//   - no capabilities (`--cap-drop ALL`: running as root, bwrap would otherwise keep them);
//   - it dies with deepcode (`--die-with-parent`), and keeps its working folder.
// The environment is granted too (env.ts), by the mod (index.ts).

import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, readdirSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { homedir, tmpdir } from "node:os";
import { PROTECTED_PROJECT_PATHS, secretLocations } from "../../src/contract/protected.js";
import { findOnPath } from "../../src/lib/path-lookup.js";
import { existingGuarded, guardedPaths } from "./protect.js";
import { projectSecrets } from "./secrets.js";
import { forwardedArgv, type ForwarderConfig } from "./forward.js";
import { seccompFilter } from "./seccomp.js";
import { withInherited, type Inherited } from "./inherit.js";
import { AGENT_ENV, hostSockets } from "./sockets.js";
import { secretObjects } from "./git-objects.js";
import { emptyStandIn, inside, SYSTEM_DIRS, SYSTEM_SECRETS, toolchainDirs } from "./grant.js";

export { agentSockets } from "./sockets.js";

/** What the probe runs: the same namespaces and mounts a real command gets. */
export const PROBE_ARGS = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--unshare-all", "--die-with-parent", "--cap-drop", "ALL", "true"];
const PROBE_TIMEOUT_MS = 10_000;

export interface Probe {
  /** Absolute path of a bwrap that works here, or null. */
  bwrap: string | null;
  /** Why there is no sandbox (null when there is one). */
  problem: string | null;
  /** The seccomp program's path for `--seccomp 3` (seccomp.ts), when it loads here. */
  seccomp?: string | null;
  /** Why commands run without the filter (with a sandbox), else null. */
  seccompProblem?: string | null;
}

const probes = new Map<string, Probe>();

/** Find bwrap on PATH and run it once with the real options and the seccomp filter, handed
 *  over as commands get it (cached per PATH and architecture). Where the filter has no program
 *  for this architecture or does not load, bwrap alone is tried: a sandbox without the filter,
 *  and `seccompProblem` says why. */
export function probeBwrap(platform: NodeJS.Platform = process.platform, path: string = process.env.PATH ?? "", arch: string = process.arch): Probe {
  if (platform !== "linux") return { bwrap: null, problem: `bubblewrap is Linux-only (this is ${platform})` };
  const key = `${arch}\0${path}`;
  const cached = probes.get(key);
  if (cached) return cached;
  const found = findOnPath("bwrap", path);
  let probe: Probe;
  if (!found) probe = { bwrap: null, problem: "bwrap (bubblewrap) is not installed or not on PATH" };
  else {
    const filter = seccompFilter(arch);
    const filtered = "path" in filter ? tryBwrap(withInherited([found, "--seccomp", "3", ...PROBE_ARGS], [{ fd: 3, path: filter.path }])) : filter.problem;
    if (filtered === null && "path" in filter) probe = { bwrap: found, problem: null, seccomp: filter.path, seccompProblem: null };
    else {
      const plain = tryBwrap([found, ...PROBE_ARGS]);
      const seccompProblem = "path" in filter ? `the seccomp filter does not load here (${filtered})` : filter.problem;
      probe = plain === null ? { bwrap: found, problem: null, seccomp: null, seccompProblem } : { bwrap: null, problem: `${found} cannot create a sandbox here (${plain}); user namespaces may be disabled` };
    }
  }
  probes.set(key, probe);
  return probe;
}

/** Run a probe's argv: null when it worked, else its first line of complaint. */
function tryBwrap(argv: readonly string[]): string | null {
  const r = spawnSync(argv[0], argv.slice(1), { timeout: PROBE_TIMEOUT_MS, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  if (r.status === 0) return null;
  return r.error ? r.error.message : (r.stderr || "").trim().split("\n")[0] || `exit status ${r.status ?? r.signal}`;
}

export interface WrapOptions {
  bwrap: string;
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
   *  folders are bound read-only. */
  readOnly?: boolean;
  /** Where agent sockets are named (default: this process's environment). */
  env?: NodeJS.ProcessEnv;
  /** The private home (grant.ts privateHome), mounted at `home`; none: the home is empty. */
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
  /** With `network: false`, the channel's descriptors (channel.ts) and what the forwarder does
   *  with it (forward.ts: the allowedDomains proxy, a job's served ports, the ports a command
   *  reaches): the command runs behind the forwarder. */
  channel?: readonly Inherited[];
  forward?: ForwarderConfig;
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

/** What stays read-only in each writable folder, where it exists: the contract's protected
 *  project paths (src/contract/protected.ts, the gate's list) and git's other control files
 *  (protect.ts, which also undoes what a command creates where nothing exists yet). */
function protectedPaths(dir: string): string[] {
  return guardedPaths(dir).flatMap(existingGuarded);
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

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false; // absent: nothing to show
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

/** Mounts that hide `path` where it exists: an empty tmpfs for a folder, the empty read-only
 *  regular file `empty` for a file (grant.ts emptyStandIn: tools treat it as a file). */
function hide(path: string, empty: string): string[] {
  try {
    return statSync(path).isDirectory() ? ["--tmpfs", path] : ["--ro-bind", empty, path];
  } catch {
    return []; // absent: nothing to hide (creating a mount point would leave a trace on the host)
  }
}

/** A system folder as the sandbox shows it: the same symlink (`/bin -> usr/bin`), or bound
 *  read-only; nothing where the host has none. */
function systemMount(dir: string): string[] {
  try {
    const st = lstatSync(dir);
    if (st.isSymbolicLink()) return ["--symlink", readlinkSync(dir), dir];
    return st.isDirectory() ? ["--ro-bind", dir, dir] : [];
  } catch {
    return []; // not on this system
  }
}

/** bwrap's arguments (everything before `--`) for one command: the grants of grant.ts, then the
 *  masks over what is granted (secrets, sockets), then the protected paths. */
export function sandboxArgs(o: WrapOptions): string[] {
  ensureProtectedFolders(o.root);
  const home = o.home ?? homedir();
  const writable = writableDirs(o.root, o.writable, home);
  const readable = (o.readable ?? []).filter((r) => !writable.some((w) => inside(r, w)));
  const deepcodeHome = o.deepcodeHome ?? join(home, ".deepcode");
  const empty = emptyStandIn(deepcodeHome);
  const args: string[] = [];
  // The system, read-only; a /dev, a /proc of its own PID namespace, private temp folders.
  for (const d of SYSTEM_DIRS) args.push(...systemMount(d));
  args.push("--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--tmpfs", "/var/tmp", "--tmpfs", "/run");
  const tmp = o.tmp ?? tmpdir();
  // A $TMPDIR outside /tmp gets its own private tmpfs — unless it lies inside a writable folder
  // (a tmpfs there would hide part of the workspace). A workspace inside it is bound below.
  if (tmp !== "/tmp" && isAbsolute(tmp) && existsSync(tmp) && !inside(tmp, "/tmp") && !writable.some((w) => inside(tmp, w))) args.push("--tmpfs", realpathSync(tmp));
  // With network, the resolver's file where /etc/resolv.conf leads into /run (systemd-resolved).
  if (o.network) {
    const resolv = realOrNull("/etc/resolv.conf");
    if (resolv && inside(resolv, "/run")) args.push("--ro-bind", resolv, resolv);
  }
  // The private home at the person's $HOME path — unless the home is itself granted (a
  // workspace that is, or holds, the home folder: then its secret places are masked below).
  const homeGranted = writable.some((w) => inside(home, w));
  if (!homeGranted && o.privateHome) args.push("--bind", o.privateHome, home);
  // Toolchains the PATH points into, read-only; the installed plugins' files (a plugin's command
  // runs its own scripts); the folders settings name.
  const tools = o.tools ?? toolchainDirs(o.path ?? process.env.PATH ?? "", home, writable);
  const plugins = secretLocations(home, o.deepcodeHome).flatMap((l) => l.sandboxReadable ?? []).filter(isDir);
  const readOnlyGrants = [...tools, ...plugins, ...readable].filter((d, i, all) => all.indexOf(d) === i && !writable.some((w) => inside(d, w)));
  for (const d of readOnlyGrants) args.push("--ro-bind", d, d);
  for (const w of writable) args.push(o.readOnly ? "--ro-bind" : "--bind", w, w);
  // Masks go on top of the grants. What a grant holds of the home folder's credential places
  // (`~/.cargo/credentials.toml` in a granted `~/.cargo`; everything of a workspace that is the
  // home) and of deepcode's home is hidden; a place that holds a writable folder is not hidden
  // whole (that would hide the workspace): of deepcode's home, all but the way to it is.
  const granted = [...writable, ...readOnlyGrants];
  const hidden: string[] = [];
  for (const l of secretLocations(home, o.deepcodeHome)) {
    const holds = writable.some((w) => inside(w, l.path));
    if (holds && l.deepcodeHome) {
      for (const p of around(l.path, writable)) {
        const mount = hide(p, empty);
        if (mount.length > 0) hidden.push(p);
        args.push(...mount);
      }
      continue;
    }
    if (holds || !granted.some((g) => inside(l.path, g))) continue;
    const mount = hide(l.path, empty);
    if (mount.length > 0) hidden.push(l.path);
    args.push(...mount);
    if (mount.length > 0) for (const r of l.sandboxReadable ?? []) if (isDir(r)) args.push("--ro-bind", r, r);
  }
  // The system's own secrets (password hashes, host keys …).
  for (const p of SYSTEM_SECRETS) args.push(...hide(p, empty));
  // Project secrets (`.env`, keys …) in what is granted: the empty regular file stands in.
  // (Not inside a place already hidden: there is nothing to bind over.)
  const secrets = projectSecrets([...writable, ...readable]);
  for (const p of secrets) if (!hidden.some((h) => inside(p, h))) args.push("--ro-bind", empty, p);
  // Git's copies of those secrets (index, stash, objects, packs): git-objects.ts.
  for (const p of secretObjects(writable, secrets)) if (!hidden.some((h) => inside(p, h))) args.push("--ro-bind", empty, p);
  // Without the seccomp filter (which stops every unix socket, seccomp.ts), unix sockets bound on
  // the host inside what is granted (a workspace's dev socket, a toolchain daemon's) are hidden
  // where deepcode knows them: read-only does not stop a connection (sockets.ts).
  for (const p of o.seccomp ? [] : hostSockets(o.env ?? process.env)) {
    if (hidden.some((h) => inside(p, h)) || !granted.some((g) => inside(p, g))) continue;
    args.push("--ro-bind", "/dev/null", p);
  }
  for (const v of AGENT_ENV) args.push("--unsetenv", v);
  if (!o.readOnly) for (const w of writable) for (const p of protectedPaths(w)) args.push("--ro-bind", p, p);
  args.push("--unshare-all");
  if (o.network) args.push("--share-net");
  args.push("--die-with-parent", "--cap-drop", "ALL", "--chdir", o.cwd);
  return args;
}

function realOrNull(p: string): string | null {
  try {
    return realpathSync(p);
  } catch {
    return null; // absent or dangling
  }
}

/** The argv that runs `argv` in the sandbox: bwrap with its arguments, started by a shell that
 *  opens the seccomp program (fd 3) and the channel's descriptors first (inherit.ts). */
export function wrapArgv(argv: readonly string[], o: WrapOptions): string[] {
  const channel = !o.network && o.channel ? o.channel : [];
  const files = [...(o.seccomp ? [{ fd: 3, path: o.seccomp }] : []), ...channel];
  const command = channel.length > 0 ? forwardedArgv(argv, o.forward ?? { proxy: true, serve: false, ports: [] }) : argv;
  return withInherited([o.bwrap, ...sandboxArgs(o), ...(o.seccomp ? ["--seccomp", "3"] : []), "--", ...command], files);
}
