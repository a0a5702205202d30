// The grant plan (plan.ts) as a macOS Seatbelt profile, the language `sandbox-exec -p` reads
// (SBPL, a Scheme). Not used to run commands yet: it has not run on a Mac, so deepcode on macOS
// runs commands uncontained and the permission gate decides; `deepcode sandbox --profile`
// prints it for a person on a Mac to try (issue #36).
//
// How the plan maps:
//   - `(deny default)` first; the profile then allows what the plan grants. Seatbelt decides by
//     the last rule that matches, so what is hidden is denied after the allows that cover it, a
//     folder granted again inside a hidden one (installed plugins) after that, and the protected
//     paths' write denials last.
//   - read-only grants: `file-read*` on the path and everything under it (`subpath`); a system
//     link (`/etc -> private/etc`) as the link itself (`literal`) and where it leads. The
//     folders on the way to a grant give their own metadata only (`file-read-metadata`
//     `literal`: a path can be resolved, nothing in them listed or read).
//   - read-write grants: `file-read* file-write*`.
//   - the private home: Seatbelt cannot show one folder at another path, so the command's HOME
//     is the private home's own path (seatbeltEnv), granted read-write; the person's real home
//     is not granted. Private temp folders cannot be made empty per command either: the
//     host's /tmp is not granted, and TMPDIR is a folder in the private home.
//   - hidden paths: denied to read and write (`literal` for a file, `subpath` for a folder,
//     and the same path spelled in any case, for a case-insensitive volume); no stand-in file
//     is possible, so a tool reading one gets "Operation not permitted", not an empty file.
//     Renaming a folder on the way to one (moving it out from under the rule) is denied too.
//   - protected paths: writes denied whether they exist or not (Seatbelt, unlike a bind
//     mount, can refuse the creation of a path), in any case, and their folders not renamed.
//   - network: none (nothing allowed), all (IP sockets, the resolver), or only deepcode's
//     filtering proxy at its localhost port. Unix sockets are never allowed (no host socket),
//     except the system resolver's with network "all".
// Paths are always SBPL strings (sbplString), never comments: a path cannot end a string or
// start a rule, whatever characters it holds.

import { dirname, join, resolve } from "node:path";
import type { Guarded } from "./protect.js";
import { inside } from "./grant.js";
import type { SandboxPlan } from "./plan.js";

/** A string literal of SBPL: only the backslash and the double quote are special inside one
 *  (Scheme's reader), so both are escaped and every other character stands for itself. */
export function sbplString(s: string): string {
  return `"${s.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** A regular expression matching `path` exactly (`tree`: and everything under it), with ASCII
 *  letters in either case: APFS and HFS+ volumes are case-insensitive by default, so
 *  `.MCP.json` names the same file as `.mcp.json`. */
export function foldedRegex(path: string, tree: boolean, tail = ""): string {
  const body = [...path].map((c) => (/[A-Za-z]/.test(c) ? `[${c.toLowerCase()}${c.toUpperCase()}]` : /[\\^$.|?*+()[\]{}]/.test(c) ? `\\${c}` : c)).join("");
  return `^${body}${tail}${tree ? "(/.*)?" : ""}$`;
}

/** A contract regex over file names (`^settings.*\.json$`) as the tail of a path regex: its
 *  anchors dropped, `(?:` groups made plain groups (POSIX regex has no other kind), letters in
 *  either case; `.` in it may also match a `/` (a wider denial, never a narrower one). */
function namesTail(names: RegExp): string {
  const src = names.source.replace(/^\^/, "").replace(/\$$/, "").replace(/\(\?:/g, "(");
  let out = "";
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === "\\" && i + 1 < src.length) {
      out += c + src[++i];
      continue;
    }
    out += /[A-Za-z]/.test(c) ? `[${c.toLowerCase()}${c.toUpperCase()}]` : c;
  }
  return out;
}

const PROCESS = ["(allow process-exec)", "(allow process-fork)", "(allow signal (target same-sandbox))", "(allow process-info* (target same-sandbox))"];

/** What a shell, git and node read about the machine: CPU and memory (libuv's os.cpus(),
 *  V8's thread pool), the OS release, limits, load, their own processes. */
const SYSCTLS = [
  "hw.activecpu", "hw.ncpu", "hw.logicalcpu", "hw.logicalcpu_max", "hw.physicalcpu", "hw.physicalcpu_max", "hw.memsize", "hw.pagesize", "hw.pagesize_compat",
  "hw.cachelinesize", "hw.cachelinesize_compat", "hw.l1dcachesize", "hw.l1icachesize", "hw.l2cachesize", "hw.l3cachesize", "hw.l1dcachesize_compat", "hw.l1icachesize_compat",
  "hw.l2cachesize_compat", "hw.l3cachesize_compat", "hw.machine", "hw.model", "hw.cputype", "hw.cpusubtype", "hw.cpufamily", "hw.byteorder", "hw.nperflevels", "hw.packages",
  "hw.tbfrequency", "hw.tbfrequency_compat", "hw.cpufrequency", "hw.cpufrequency_compat", "hw.busfrequency_compat", "hw.vectorunit",
  "kern.argmax", "kern.hostname", "kern.ostype", "kern.osrelease", "kern.osversion", "kern.osproductversion", "kern.version", "kern.osvariant_status", "kern.boottime",
  "kern.maxfiles", "kern.maxfilesperproc", "kern.maxproc", "kern.ngroups", "kern.usrstack64", "kern.secure_kernel", "kern.tcsm_available",
  "machdep.cpu.brand_string", "sysctl.proc_cputype", "sysctl.proc_translated", "vm.loadavg",
];
const SYSCTL_PREFIXES = ["hw.optional.", "hw.perflevel", "machdep.cpu.", "kern.proc.pid.", "kern.proc.pgrp."];

/** Services a shell and node look up: the user database (getpwuid: `~`, git, ssh), the system
 *  log, notifications (time zone changes), the per-user temp and cache folders. */
const SERVICES = ["com.apple.system.opendirectoryd.libinfo", "com.apple.system.opendirectoryd.membership", "com.apple.system.logger", "com.apple.logd", "com.apple.system.notification_center", "com.apple.bsd.dirhelper"];
/** With network: the resolver's configuration and certificate checks (curl, git, Go's TLS). */
const NETWORK_SERVICES = ["com.apple.SystemConfiguration.configd", "com.apple.SystemConfiguration.DNSConfiguration", "com.apple.dnssd.service", "com.apple.SecurityServer", "com.apple.trustd.agent", "com.apple.ocspd"];
/** The system resolver's socket and configuration (network "all" only). */
const RESOLVER_SOCKET = "/private/var/run/mDNSResponder";
const RESOLVER_FILES = ["/private/var/run/resolv.conf", "/private/etc/hosts", "/private/etc/services", "/private/etc/protocols"];

const DEVICES_RW = ["/dev/null", "/dev/zero", "/dev/tty", "/dev/dtracehelper", "/dev/stdout", "/dev/stderr"];
const DEVICES_R = ["/dev/random", "/dev/urandom", "/dev/stdin"];

/** The command's private temp folder on a Mac: a folder of the private home (TMPDIR). */
export function seatbeltTmp(plan: SandboxPlan): string | null {
  return plan.privateHome ? join(plan.privateHome.path, ".tmp") : null;
}

/** The environment a Seatbelt-contained command gets on top of the granted one: HOME at the
 *  private home's own path (it cannot be shown at $HOME), TMPDIR in it; `unset`: the agent
 *  sockets' variables, as bubblewrap's `--unsetenv`. */
export function seatbeltEnv(plan: SandboxPlan): { set: Record<string, string>; unset: readonly string[] } {
  const tmp = seatbeltTmp(plan);
  return { set: { HOME: plan.privateHome?.path ?? plan.home, ...(tmp ? { TMPDIR: tmp } : {}) }, unset: plan.env.unset };
}

/** The folders strictly above `p`, nearest last ("/" first). */
function ancestors(p: string): string[] {
  const out: string[] = [];
  for (let d = dirname(p); ; d = dirname(d)) {
    out.unshift(d);
    if (d === dirname(d)) return out;
  }
}

/** The folders strictly between a read-write folder and `p`, whose rename would carry `p` out
 *  from under a rule naming its path. */
function renameable(p: string, readWrite: readonly string[]): string[] {
  return ancestors(p).filter((a) => readWrite.some((w) => inside(a, w) && a !== w));
}

/** One rule; never without a filter (a bare `(allow file-read*)` would allow it everywhere). */
function rule(head: string, filters: readonly string[]): string {
  if (filters.length === 0) throw new Error(`seatbelt: a rule "${head}" without a filter`);
  return filters.length === 1 ? `(${head} ${filters[0]})` : `(${head}\n  ${filters.join("\n  ")})`;
}

const lit = (p: string): string => `(literal ${sbplString(p)})`;
const sub = (p: string): string => `(subpath ${sbplString(p)})`;
const rx = (r: string): string => `(regex ${sbplString(r)})`;

/** The profile for a plan. */
export function seatbeltProfile(plan: SandboxPlan): string {
  const out: string[] = ["(version 1)", "(deny default)", "", "; processes: children inherit this profile", ...PROCESS, ""];
  out.push("; what a shell, git and node ask of the system");
  out.push(rule("allow sysctl-read", [...SYSCTLS.map((n) => `(sysctl-name ${sbplString(n)})`), ...SYSCTL_PREFIXES.map((n) => `(sysctl-name-prefix ${sbplString(n)})`)]));
  out.push(rule("allow mach-lookup", SERVICES.map((n) => `(global-name ${sbplString(n)})`)));
  out.push("(allow ipc-posix-sem)", "(allow ipc-posix-shm)", "(allow user-preference-read)", "");
  out.push("; devices");
  out.push(rule("allow file-read* file-write-data file-ioctl", DEVICES_RW.map(lit)));
  out.push(rule("allow file-read*", [...DEVICES_R.map(lit), sub("/dev/fd")]));
  out.push(rule("allow file-write-data", [sub("/dev/fd")]));
  const tmp = seatbeltTmp(plan);
  const readLinks = plan.system.filter((s) => s.link !== undefined);
  const systemRead = [...plan.system.filter((s) => s.link === undefined).map((s) => s.path), ...readLinks.map((s) => resolve(dirname(s.path), s.link as string))];
  const readWrite = [...plan.readWrite, ...(plan.privateHome ? [plan.privateHome.path] : []), ...(tmp ? [tmp] : [])];
  const regrants = plan.hidden.flatMap((h) => h.regrant ?? []);
  const granted = [...systemRead, ...readLinks.map((s) => s.path), ...plan.readOnly, ...readWrite, ...regrants, plan.cwd];
  const onTheWay = [...new Set(granted.flatMap(ancestors))].filter((a) => !granted.some((g) => g !== a && inside(a, g))).sort();
  out.push("", "; the folders on the way to a grant: their own metadata only");
  if (onTheWay.length > 0) out.push(rule("allow file-read-metadata", onTheWay.map(lit)));
  out.push("", "; read-only: the system, the toolchains, installed plugins, allowRead folders");
  if (readLinks.length > 0) out.push(rule("allow file-read*", readLinks.map((s) => lit(s.path))));
  const readOnly = [...new Set([...systemRead, ...plan.readOnly])].filter((p, _i, all) => !all.some((o) => o !== p && inside(p, o)));
  if (readOnly.length > 0) out.push(rule("allow file-read*", readOnly.map(sub)));
  out.push("", "; read-write: the workspace and the folders named, the private home (HOME), its temp folder (TMPDIR)");
  if (readWrite.length > 0) out.push(rule("allow file-read* file-write*", readWrite.map(sub)));
  out.push("", "; hidden: secrets inside what is granted (after the allows: the last rule that matches decides)");
  for (const h of plan.hidden) {
    const folder = h.kind === "folder";
    out.push(rule("deny file-read* file-write*", [folder ? sub(h.path) : lit(h.path), rx(foldedRegex(h.path, folder))]));
    const moves = renameable(h.path, plan.readWrite);
    if (moves.length > 0) out.push(rule("deny file-write-unlink", moves.map(lit)));
    if (h.regrant && h.regrant.length > 0) out.push(rule("allow file-read*", h.regrant.map(sub)));
  }
  out.push("", "; protected project paths: never written, whether they exist or not");
  const moves = new Set<string>();
  for (const g of plan.guarded) {
    out.push(rule("deny file-write*", guardFilters(g)));
    for (const m of renameable(g.names ? join(g.path, "x") : g.path, plan.readWrite)) moves.add(m);
  }
  if (moves.size > 0) out.push(rule("deny file-write-unlink", [...moves].sort().map(lit)));
  out.push("", ...networkRules(plan));
  return `${out.join("\n")}\n`;
}

/** A protected place as filters: the path (and what is under it: `subpath` also matches a file),
 *  in any case; a `names` place as a regex over the files in its folder. */
function guardFilters(g: Guarded): string[] {
  if (g.names) return [rx(foldedRegex(g.path, false, `/${namesTail(g.names)}`))];
  return [sub(g.path), rx(foldedRegex(g.path, true))];
}

function networkRules(plan: SandboxPlan): string[] {
  const n = plan.network;
  if (n.kind === "none") return ["; network: none"];
  if (n.kind === "proxy") {
    if (n.port === null) return ["; network: only deepcode's filtering proxy, which has no localhost port here: none"];
    return ["; network: only deepcode's filtering proxy on localhost", `(allow network-outbound (remote ip ${sbplString(`localhost:${n.port}`)}))`];
  }
  return [
    "; network: all (IP sockets; unix sockets only to the system resolver)",
    `(allow network-outbound (remote ip ${sbplString("*:*")}))`,
    `(allow network-inbound (local ip ${sbplString("*:*")}))`,
    `(allow network-bind (local ip ${sbplString("*:*")}))`,
    "(allow system-socket (socket-domain AF_UNIX))",
    `(allow network-outbound (remote unix-socket (path-literal ${sbplString(RESOLVER_SOCKET)})))`,
    rule("allow mach-lookup", NETWORK_SERVICES.map((s) => `(global-name ${sbplString(s)})`)),
    rule("allow file-read*", RESOLVER_FILES.map(lit)),
  ];
}
