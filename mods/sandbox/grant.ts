// What a sandboxed command is given (issue #35). The sandbox starts from nothing — bwrap's new
// root is an empty tmpfs — and binds in only what the work needs:
//   - the system, read-only: SYSTEM_DIRS (programs, libraries, /etc), less the few system files
//     that hold secrets (the contract's SYSTEM_SECRETS: /etc/shadow, host keys …);
//   - the toolchains the person's PATH points into, read-only (toolchainDirs): a PATH folder
//     outside the system, its install prefix (`~/.cargo` for `~/.cargo/bin`, `~/.pyenv` for its
//     shims), the companions a prefix needs (`~/.rustup` beside `~/.cargo`, `~/.local/lib`
//     beside `~/.local/bin`), and where the links in such a folder lead;
//   - a private home per project (privateHome), mounted at the person's $HOME path, so caches
//     (~/.cache with Go's build cache, ~/go, ~/.npm, pip, cargo's registry, gradle, maven …)
//     persist from one command to the next and tools that look up the home by the password
//     database (Java's user.home) find it too; `~/.gitconfig` reaches it sanitised (gitconfig.ts);
//   - the workspace and the folders the person opened or named, read-write; folders settings
//     `sandbox.filesystem.allowRead` names, read-only.
// Everything else — the person's real home, other projects, /var, /srv, /mnt, /media — is not
// there at all: no name of it can be read, whatever the command builds at run time.

import { createHash } from "node:crypto";
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, realpathSync, writeFileSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { tmpdir } from "node:os";

/** The system, bound read-only where it exists (a symlink — `/bin -> usr/bin` — is recreated as
 *  the same symlink). */
export const SYSTEM_DIRS = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt", "/nix", "/snap", "/gnu"];

/** The system files that hold secrets, hidden inside the granted system: password hashes, the
 *  host's private keys, stored network and VPN passwords, Kerberos keys. Readable by root only
 *  on the host — and deepcode may run as root (CI, containers). */
export const SYSTEM_SECRETS = [
  "/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-", "/etc/security/opasswd",
  "/etc/ssl/private", "/etc/pki/tls/private", "/etc/letsencrypt", "/etc/krb5.keytab",
  "/etc/NetworkManager/system-connections", "/etc/wireguard", "/etc/openvpn", "/etc/ipsec.secrets", "/etc/ppp/chap-secrets", "/etc/ppp/pap-secrets",
  "/etc/sudoers.d", "/etc/ssh/ssh_host_rsa_key", "/etc/ssh/ssh_host_ecdsa_key", "/etc/ssh/ssh_host_ed25519_key", "/etc/ssh/ssh_host_dsa_key",
  "/etc/docker/key.json", "/etc/rancher", "/etc/kubernetes",
];

/** How many entries of one PATH folder are looked at for links that lead elsewhere. */
const MAX_LINKS_LOOKED_AT = 500;

export function inside(child: string, parent: string): boolean {
  const r = relative(parent, child);
  return r === "" || (!r.startsWith(`..${sep}`) && r !== ".." && !isAbsolute(r));
}

function realOrNull(p: string): string | null {
  try {
    return realpathSync(p);
  } catch {
    return null; // absent, or a dangling link: nothing to grant
  }
}

function isDir(p: string): boolean {
  try {
    return lstatSync(p).isDirectory();
  } catch {
    return false; // absent
  }
}

/** The install prefix a PATH folder belongs to: `X` for `X/bin` or `X/shims`, never the home
 *  folder itself nor `/`. */
function prefixOf(dir: string, home: string): string | null {
  const name = basename(dir);
  if (name !== "bin" && name !== "shims" && name !== "sbin") return null;
  const up = dirname(dir);
  return up === home || up === "/" || up === dirname(up) ? null : up;
}

/** Folders a prefix needs beside it (relative to the home folder). */
const COMPANIONS: Record<string, string[]> = {
  ".cargo": [".rustup"],
  ".local": [],
};

/**
 * The toolchain folders to grant read-only for this PATH: every absolute PATH folder outside
 * the system and the workspace, its install prefix, the prefix's companions, and the folders the
 * links in it lead to (with their prefixes). `~/.local/bin` grants `~/.local/bin` and
 * `~/.local/lib`, not `~/.local/share` (other programs' data). deepcode's own node is always
 * there (the network forwarder runs on it).
 */
export function toolchainDirs(path: string, home: string, granted: readonly string[], node: string = process.execPath): string[] {
  const out = new Set<string>();
  const covered = (p: string): boolean => SYSTEM_DIRS.some((s) => inside(p, s)) || granted.some((g) => inside(p, g)) || [...out].some((o) => inside(p, o));
  const add = (dir: string): void => {
    const real = realOrNull(dir);
    if (real === null || !isDir(real) || real === "/" || real === home || covered(real)) return;
    // A project's `node_modules/.bin` (npm run puts it first): its links lead into the packages
    // beside it, which need each other — the whole `node_modules`, not each package.
    if (basename(real) === ".bin" && basename(dirname(real)) === "node_modules") {
      const nm = dirname(real);
      if (covered(nm)) return;
      for (const o of [...out]) if (inside(o, nm)) out.delete(o);
      out.add(nm);
      return;
    }
    if (real === join(home, ".local", "bin")) {
      out.add(real);
      const lib = join(home, ".local", "lib");
      if (isDir(lib)) out.add(lib);
      return;
    }
    const prefix = prefixOf(real, home);
    const grant = prefix ?? real;
    if (covered(grant)) return;
    for (const o of [...out]) if (inside(o, grant)) out.delete(o);
    out.add(grant);
    const rel = relative(home, grant);
    for (const c of COMPANIONS[rel] ?? []) if (isDir(join(home, c))) out.add(join(home, c));
  };
  const entries = path.split(":").filter((d) => isAbsolute(d));
  for (const d of entries) add(d);
  add(dirname(node));
  // Links in a granted PATH folder that lead elsewhere (`~/bin/tool -> ~/tools/x/bin/tool`).
  for (const d of entries) {
    const real = realOrNull(d);
    if (real === null || SYSTEM_DIRS.some((s) => inside(real, s))) continue;
    let names: string[];
    try {
      names = readdirSync(real).slice(0, MAX_LINKS_LOOKED_AT);
    } catch {
      continue; // unreadable: nothing of it is granted beyond the folder
    }
    for (const n of names) {
      const p = join(real, n);
      let link: boolean;
      try {
        link = lstatSync(p).isSymbolicLink();
      } catch {
        continue; // vanished
      }
      const target = link ? realOrNull(p) : null;
      if (target !== null) add(dirname(target));
    }
  }
  return [...out].sort();
}

/** The private home of `root`'s sandbox: `<deepcode home>/sandbox/home/<name>-<hash>`. Its
 *  caches persist across sessions of the project. Created by ensurePrivateHome at the first
 *  command, not at start (a start with a read-only deepcode home says so once, elsewhere). */
export function privateHome(deepcodeHome: string, root: string): string {
  const real = realOrNull(root) ?? resolve(root);
  const name = basename(real).replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 40) || "root";
  return join(deepcodeHome, "sandbox", "home", `${name}-${createHash("sha256").update(real).digest("hex").slice(0, 12)}`);
}

/** Create the private home (0700) when missing; a failure (a read-only deepcode home) is the
 *  command's error, named. */
export function ensurePrivateHome(dir: string): void {
  if (existsSync(dir)) return;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
  } catch (err) {
    throw new Error(`deepcode sandbox: cannot create the sandbox's private home ${dir}: ${(err as Error).message}`, { cause: err });
  }
}

/** An empty, read-only regular file to stand in for a hidden secret file: git, tar, rsync and
 *  editors treat it as a file (a /dev/null stand-in is a character device, which `git add`
 *  refuses). Created once in deepcode's home. */
export function emptyStandIn(deepcodeHome: string): string {
  const file = join(deepcodeHome, "sandbox", "empty");
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(file, "", { mode: 0o444 });
  }
  return file;
}

/** Paths the settings name (`~/…` or absolute), resolved; missing ones are left out. */
export function namedDirs(list: readonly string[], home: string, root: string): string[] {
  const out: string[] = [];
  for (const d of list) {
    const abs = d === "~" || d.startsWith("~/") ? join(home, d.slice(1)) : resolve(root, d);
    const real = realOrNull(abs);
    if (real !== null && !out.includes(real)) out.push(real);
  }
  return out;
}

/** What a launched program's configuration names outside the workspace (src/lib/named-paths.ts),
 *  as grants: real paths, never one that holds the home folder (the home itself, `/`, `/home`)
 *  or a temp folder (the sandbox's own are private); secrets in what is shown stay masked
 *  (bwrap.ts). */
export function launchReadable(list: readonly string[], home: string): string[] {
  const out: string[] = [];
  const temps = ["/tmp", "/var/tmp", tmpdir()].map((t) => realOrNull(t) ?? t);
  for (const p of list) {
    const real = realOrNull(p);
    if (real === null || inside(home, real) || temps.some((t) => inside(t, real)) || out.includes(real)) continue;
    out.push(real);
  }
  return out;
}
