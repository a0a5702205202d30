// bubblewrap: finding it, checking once that it can build a sandbox here, and the argv that
// wraps a command. Linux only; everything here is synchronous and cached per process.
//
// The sandbox a command gets:
//   - the whole file system read-only (`--ro-bind / /`), with the workspace root and
//     `permissions.additionalDirectories` bound writable on top;
//   - a private, empty /tmp (and the same for $TMPDIR when it lies elsewhere): temp files work,
//     nothing of the host's temp is seen or changed;
//   - a minimal /dev (null, zero, random, tty, shm …) and a /proc of its own PID namespace;
//   - every namespace unshared, the network included (only loopback of its own, so not even
//     127.0.0.1 of the host is reachable) unless network is allowed; then /run is the host's
//     (DNS may need it), otherwise /run is an empty tmpfs too; with
//     `sandbox.network.allowedDomains` the namespace stays unshared and the command reaches the
//     filtering proxy through a channel of inherited descriptors (proxy.ts, channel.ts,
//     forward.ts);
//   - no unix socket can be created (a seccomp filter, seccomp.ts), so no host socket is
//     reachable whatever its name; where there is no filter (another architecture, or it does
//     not load), the host sockets deepcode knows of are hidden by path instead (sockets.ts);
//   - well-known secrets in the home folder (~/.ssh, ~/.aws, … and deepcode's credentials; the
//     contract's list, src/contract/protected.ts) hidden: an empty folder or file stands in
//     their place; of deepcode's home, only the installed plugins' files are seen, read-only
//     (a plugin's command runs its own scripts);
//   - secrets in the workspace (`.env*`, keys, token files: the contract's names) hidden the
//     same way (secrets.ts);
//   - files in the workspace whose change would loosen the rules or run code later (the
//     contract's protected project paths: .deepcode/, .claude/settings*.json,
//     .claude/commands/, .mcp.json, .git/config, .git/hooks/, and git's other control files,
//     protect.ts) read-only where they exist — and .deepcode/ always: it is created (empty) in
//     the workspace root first; what a command creates where nothing existed is undone after
//     it (protect.ts, index.ts);
//   - with `readOnly` (plan mode), nothing writable at all but the private temp folders;
//   - no capabilities (`--cap-drop ALL`: running as root, bwrap would otherwise keep them);
//   - it dies with deepcode (`--die-with-parent`), and keeps its working folder.

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { homedir, tmpdir } from "node:os";
import { PROTECTED_PROJECT_PATHS, secretLocations } from "../../src/contract/protected.js";
import { findOnPath } from "../../src/lib/path-lookup.js";
import { existingGuarded, guardedPaths } from "./protect.js";
import { projectSecrets } from "./secrets.js";
import { forwardedArgv } from "./forward.js";
import { seccompFilter } from "./seccomp.js";
import { withInherited, type Inherited } from "./inherit.js";
import { AGENT_ENV, hostSockets } from "./sockets.js";
import { secretObjects } from "./git-objects.js";

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
  /** The seccomp program's path (Probe.seccomp): handed to bwrap as `--seccomp 3`. Without it,
   *  host sockets are hidden by path (sockets.ts). */
  seccomp?: string | null;
  /** With `network: false`, the allowedDomains channel's descriptors (channel.ts): the command
   *  runs behind the forwarder (forward.ts). */
  channel?: readonly Inherited[];
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

function inside(child: string, parent: string): boolean {
  const r = relative(parent, child);
  return r === "" || (!r.startsWith(`..${sep}`) && r !== ".." && !isAbsolute(r));
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

/** Mounts that hide `path` where it exists: an empty tmpfs for a folder, /dev/null for a file. */
function hide(path: string): string[] {
  try {
    return statSync(path).isDirectory() ? ["--tmpfs", path] : ["--ro-bind", "/dev/null", path];
  } catch {
    return []; // absent: nothing to hide (creating a mount point would leave a trace on the host)
  }
}

/** bwrap's arguments (everything before `--`) for one command. */
export function sandboxArgs(o: WrapOptions): string[] {
  ensureProtectedFolders(o.root);
  const writable = writableDirs(o.root, o.writable, o.home);
  const home = o.home ?? homedir();
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"];
  const tmp = o.tmp ?? tmpdir();
  // A $TMPDIR outside /tmp gets its own private tmpfs — unless it lies inside a writable folder
  // (a tmpfs there would hide part of the workspace). A workspace inside it is bound below.
  if (tmp !== "/tmp" && isAbsolute(tmp) && existsSync(tmp) && !inside(tmp, "/tmp") && !writable.some((w) => inside(tmp, w))) args.push("--tmpfs", realpathSync(tmp));
  if (!o.network) args.push("--tmpfs", "/run");
  // Binds come after the tmpfs mounts: a workspace under /tmp is bound on top of the empty one.
  for (const w of writable) args.push(o.readOnly ? "--ro-bind" : "--bind", w, w);
  // Masks go on top of the binds: a workspace that contains the home folder must not bring the
  // secrets back (a later mount over a parent folder would cover an earlier one inside it).
  // A place that holds a writable folder is not hidden whole (that would hide the workspace):
  // in deepcode's home, all but the way to the workspace is; another place is left as it is.
  const hidden: string[] = [];
  for (const l of secretLocations(home, o.deepcodeHome)) {
    const holds = writable.some((w) => inside(w, l.path));
    // A workspace inside deepcode's home (a plugin developed in place): everything of the home
    // but the way to it is hidden — the sessions and their checkpoints, trust and approvals,
    // credentials — so a command can neither read nor change what deepcode trusts or restores.
    if (holds && l.deepcodeHome) {
      for (const p of around(l.path, writable)) {
        const mount = hide(p);
        if (mount.length > 0) hidden.push(p);
        args.push(...mount);
      }
      continue;
    }
    const h = !holds ? l.path : null;
    if (h === null) continue;
    const mount = hide(h);
    if (mount.length > 0) hidden.push(h);
    args.push(...mount);
    // Installed plugins' files come back read-only over the hidden home (a plugin's command
    // runs its own script); a link among them still leads only where the sandbox shows.
    if (h === l.path && mount.length > 0) for (const r of l.sandboxReadable ?? []) if (isDir(r)) args.push("--ro-bind", r, r);
  }
  // Project secrets (`.env`, keys …) are hidden like the home ones: /dev/null stands in.
  // (Not inside a place already hidden: there is nothing to bind over.)
  const secrets = projectSecrets(writable);
  for (const p of secrets) if (!hidden.some((h) => inside(p, h))) args.push("--ro-bind", "/dev/null", p);
  // Git's copies of those secrets (index, stash, objects, packs): git-objects.ts.
  for (const p of secretObjects(writable, secrets)) if (!hidden.some((h) => inside(p, h))) args.push("--ro-bind", "/dev/null", p);
  // Without the seccomp filter (which stops every unix socket, seccomp.ts), unix sockets on the
  // host (an ssh-agent, a Docker daemon, an editor's server…: sockets.ts) are hidden where
  // deepcode knows them: read-only does not stop a connection. Not where the sandbox has an
  // empty tmpfs (nothing to bind over) — with network, /run is the host's (DNS).
  const emptied = ["/tmp", "/dev", ...(o.network ? [] : ["/run"]), ...(args.includes(realTmp(tmp)) ? [realTmp(tmp)] : [])];
  for (const p of o.seccomp ? [] : hostSockets(o.env ?? process.env)) {
    if (hidden.some((h) => inside(p, h)) || (emptied.some((t) => inside(p, t)) && !writable.some((w) => inside(p, w)))) continue;
    if (o.network && inside(p, "/run")) continue;
    args.push("--ro-bind", "/dev/null", p);
  }
  for (const v of AGENT_ENV) args.push("--unsetenv", v);
  if (!o.readOnly) for (const w of writable) for (const p of protectedPaths(w)) args.push("--ro-bind", p, p);
  args.push("--unshare-all");
  if (o.network) args.push("--share-net");
  args.push("--die-with-parent", "--cap-drop", "ALL", "--chdir", o.cwd);
  return args;
}

function realTmp(tmp: string): string {
  try {
    return realpathSync(tmp);
  } catch {
    return tmp; // absent: nothing of it is shown
  }
}

/** The argv that runs `argv` in the sandbox: bwrap with its arguments, started by a shell that
 *  opens the seccomp program (fd 3) and the channel's descriptors first (inherit.ts). */
export function wrapArgv(argv: readonly string[], o: WrapOptions): string[] {
  const channel = !o.network && o.channel ? o.channel : [];
  const files = [...(o.seccomp ? [{ fd: 3, path: o.seccomp }] : []), ...channel];
  const command = channel.length > 0 ? forwardedArgv(argv) : argv;
  return withInherited([o.bwrap, ...sandboxArgs(o), ...(o.seccomp ? ["--seccomp", "3"] : []), "--", ...command], files);
}
