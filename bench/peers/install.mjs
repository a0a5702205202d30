// The peer agents, installed on demand: bench/peers/package.json and its lock pin exact versions;
// they are installed once per lock into a cache folder of their own (default
// ~/.cache/deepcode-bench-peers/<sha256 of the lock, 16 hex>; DEEPCODE_BENCH_PEERS_CACHE moves
// it), never into the project's node_modules, and never by the project's `npm ci` or `npm test`.
//
// `npm ci` is tried first. The registry this project can reach serves only the linux-x64 builds
// of the peers' platform packages, so the lock (made here) lists no other platform, and npm ci
// refuses it as out of sync with the optional dependencies it cannot see; then `npm install`
// runs against the same lock, and the lock must come out byte-identical (nothing drifted), or
// the install fails.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const LOCK = join(HERE, "package-lock.json");
const MANIFEST = join(HERE, "package.json");

/** The binaries the bench runs, by agent id (names under node_modules/.bin). */
export const BINS = { reasonix: "reasonix", pi: "pi", opencode: "opencode", claude: "claude" };

export function cacheDir() {
  const hash = createHash("sha256").update(readFileSync(LOCK)).digest("hex").slice(0, 16);
  const root = process.env.DEEPCODE_BENCH_PEERS_CACHE || join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "deepcode-bench-peers");
  return join(root, hash);
}

/** The pinned versions, from the lock: { "opencode-ai": "1.18.33", … }. */
export function pinnedVersions() {
  const lock = JSON.parse(readFileSync(LOCK, "utf8"));
  const direct = Object.keys(JSON.parse(readFileSync(MANIFEST, "utf8")).dependencies);
  return Object.fromEntries(direct.map((name) => [name, lock.packages[`node_modules/${name}`]?.version]));
}

/** Installs the peers when the cache folder has not got them yet; returns the folder. */
export function ensurePeers({ log = (m) => console.log(m) } = {}) {
  const dir = cacheDir();
  const done = join(dir, ".installed");
  if (existsSync(done)) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  copyFileSync(MANIFEST, join(dir, "package.json"));
  copyFileSync(LOCK, join(dir, "package-lock.json"));
  log(`peers: installing the pinned peer agents into ${dir} (once per lock; about 1 GB)…`);
  const npm = (args) => execFileSync("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
  try {
    npm(["ci"]);
  } catch (err) {
    const text = String(err.stderr ?? err.message);
    if (!/can only install packages when your package\.json and package-lock\.json/.test(text)) throw new Error(`peers: npm ci failed in ${dir}:\n${text}`, { cause: err });
    log("peers: npm ci refused the lock (the registry serves no other platform's binaries); npm install against the same lock");
    npm(["install"]);
    if (!readFileSync(join(dir, "package-lock.json")).equals(readFileSync(LOCK))) {
      throw new Error(`peers: npm install changed the lock in ${dir}: a pinned version could not be installed as locked`, { cause: err });
    }
  }
  for (const bin of Object.values(BINS)) {
    if (!existsSync(join(dir, "node_modules", ".bin", bin))) throw new Error(`peers: the install in ${dir} has no ${bin} binary`);
  }
  writeFileSync(done, `${new Date().toISOString()}\n`);
  return dir;
}

/** Absolute path of a peer's binary in the cache folder. */
export function binPath(dir, agent) {
  return join(dir, "node_modules", ".bin", BINS[agent]);
}

/** What `<bin> --version` prints, first line (for the report). */
export function versionOf(cmd, args = ["--version"], env = process.env) {
  try {
    const r = spawnSync(cmd, args, { encoding: "utf8", env, timeout: 30_000, stdio: ["ignore", "pipe", "pipe"] });
    return `${r.stdout}\n${r.stderr}`.trim().split("\n")[0] || `unknown (exit ${r.status})`;
  } catch (err) {
    return `unknown (${String(err.message).split("\n")[0]})`;
  }
}
