// bubblewrap: finding it, checking once that it can build a sandbox here, and the argv that
// wraps a command. Linux only; everything here is synchronous and cached per process.
//
// The sandbox a command gets starts from nothing (bwrap's new root is an empty tmpfs) and is
// given what the work needs — the plan (plan.ts) works it out, grant.ts says why, and this file
// renders it (bwrapArgs):
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
import { accessSync, constants, statSync } from "node:fs";
import { findOnPath } from "../../src/lib/path-lookup.js";
import { forwardedArgv, type ForwarderConfig } from "./forward.js";
import { seccompFilter } from "./seccomp.js";
import { withInherited } from "./inherit.js";
import { planFor, type PlanInput, type SandboxPlan } from "./plan.js";

export { agentSockets } from "./sockets.js";
export { ensureProtectedFolders, writableDirs } from "./plan.js";

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
export function probeBwrap(platform: NodeJS.Platform = process.platform, path: string = process.env.PATH ?? "", arch: string = process.arch, binary?: string): Probe {
  if (platform !== "linux") return { bwrap: null, problem: `bubblewrap is Linux-only (this is ${platform})` };
  const key = `${arch}\0${binary ?? ""}\0${path}`;
  const cached = probes.get(key);
  if (cached) return cached;
  // `binary`: the one the managed policy names (settings sandbox.bwrapPath), nothing else.
  const found = binary !== undefined ? (executable(binary) ? binary : null) : findOnPath("bwrap", path);
  let probe: Probe;
  if (!found) probe = { bwrap: null, problem: binary !== undefined ? `${binary} is not an executable bwrap` : "bwrap (bubblewrap) is not installed or not on PATH" };
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

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false; // missing or not executable: the probe says so
  }
}

/** Run a probe's argv: null when it worked, else its first line of complaint. */
function tryBwrap(argv: readonly string[]): string | null {
  const r = spawnSync(argv[0], argv.slice(1), { timeout: PROBE_TIMEOUT_MS, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  if (r.status === 0) return null;
  return r.error ? r.error.message : (r.stderr || "").trim().split("\n")[0] || `exit status ${r.status ?? r.signal}`;
}

export interface WrapOptions extends PlanInput {
  bwrap: string;
  /** What the forwarder does with the channel (forward.ts: the allowedDomains proxy, a job's
   *  served ports, the ports a command reaches). */
  forward?: ForwarderConfig;
}

/** bwrap's arguments (everything before `--`) for one command: the plan (plan.ts) rendered —
 *  the grants, then the masks over what is granted (secrets, sockets), then the protected paths. */
export function sandboxArgs(o: WrapOptions): string[] {
  return bwrapArgs(planFor(o));
}

/** A plan as bubblewrap arguments. A hidden folder is an empty tmpfs, a hidden file the empty
 *  read-only regular file (grant.ts emptyStandIn: tools treat it as a file), a host socket
 *  /dev/null; read-only grants are `--ro-bind`, read-write ones `--bind`. */
export function bwrapArgs(plan: SandboxPlan): string[] {
  const args: string[] = [];
  for (const s of plan.system) args.push(...(s.link === undefined ? ["--ro-bind", s.path, s.path] : ["--symlink", s.link, s.path]));
  args.push("--dev", "/dev", "--proc", "/proc");
  for (const t of plan.tmp) args.push("--tmpfs", t);
  if (plan.network.kind === "all" && plan.network.resolv) args.push("--ro-bind", plan.network.resolv, plan.network.resolv);
  if (plan.privateHome) args.push("--bind", plan.privateHome.path, plan.privateHome.at);
  for (const d of plan.readOnly) args.push("--ro-bind", d, d);
  for (const w of plan.readWrite) args.push("--bind", w, w);
  for (const h of plan.hidden) {
    if (h.kind === "folder") args.push("--tmpfs", h.path);
    else args.push("--ro-bind", h.kind === "socket" ? "/dev/null" : plan.standIn, h.path);
    for (const r of h.regrant ?? []) args.push("--ro-bind", r, r);
  }
  for (const v of plan.env.unset) args.push("--unsetenv", v);
  for (const p of plan.protected) args.push("--ro-bind", p, p);
  args.push("--unshare-all");
  if (plan.network.kind === "all") args.push("--share-net");
  args.push("--die-with-parent", "--cap-drop", "ALL", "--chdir", plan.cwd);
  return args;
}

/** The argv that runs `argv` in the sandbox: bwrap with its arguments, started by a shell that
 *  opens the seccomp program (fd 3) and the channel's descriptors first (inherit.ts). */
export function wrapArgv(argv: readonly string[], o: WrapOptions): string[] {
  const channel = !o.network && o.channel ? o.channel : [];
  const files = [...(o.seccomp ? [{ fd: 3, path: o.seccomp }] : []), ...channel];
  const command = channel.length > 0 ? forwardedArgv(argv, o.forward ?? { proxy: true, serve: false, ports: [] }) : argv;
  return withInherited([o.bwrap, ...sandboxArgs(o), ...(o.seccomp ? ["--seccomp", "3"] : []), "--", ...command], files);
}
