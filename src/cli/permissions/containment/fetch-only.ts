// Network commands that only fetch, for a sandbox whose network is settings
// `sandbox.network.allowedDomains` (mods/sandbox: a filtering proxy lets commands reach the
// listed hosts and nothing else). There, a command that downloads or installs is contained like
// any other — the proxy refuses every host the person did not list, at run time — so it runs
// without a prompt under `sandbox.autoAllowBashIfSandboxed`, as Claude Code's sandbox runs
// commands to its allowed domains without asking. What still asks (contained.ts): publishing,
// logging in, pushing (`npm publish`, `git push`, `cargo publish`…), download-and-run
// (`npx`, `npm exec`, `yarn dlx`…), other machines (`ssh`, `scp`, `rsync`, `nc`), shared systems
// (`docker`, `kubectl`, `gh`…), and a `curl` or `wget` that sends data (`-d`, `-F`, `-T`,
// `--post-file`…) or reads options from a file: only plain downloads count (DOWNLOAD_OPTIONS).

/** Subcommands that fetch or install, per package manager (null: the manager alone installs). */
const PACKAGE_FETCH: Record<string, ReadonlySet<string | null>> = {
  npm: new Set(["install", "i", "in", "ins", "inst", "insta", "instal", "isnt", "isnta", "isntal", "add", "ci", "clean-install", "install-test", "it", "install-ci-test", "cit", "update", "up", "upgrade", "udpate", "outdated", "audit", "view", "v", "info", "show", "search", "pack", "dedupe", "ddp", "prune", "rebuild", "ping", "doctor"]),
  yarn: new Set([null, "add", "install", "upgrade", "up", "outdated", "info", "audit", "remove"]),
  pnpm: new Set(["add", "install", "i", "update", "up", "upgrade", "outdated", "audit", "remove", "rm"]),
  bun: new Set(["add", "install", "i", "update", "remove", "rm"]),
  pip: new Set(["install", "download", "wheel", "uninstall"]),
  pip3: new Set(["install", "download", "wheel", "uninstall"]),
  uv: new Set(["pip", "add", "sync", "lock"]),
  poetry: new Set(["add", "install", "update", "lock"]),
  cargo: new Set(["add", "update", "fetch", "search"]),
  gem: new Set(["install", "update", "uninstall"]),
  bundle: new Set([null, "install", "update", "add"]),
  go: new Set(["get", "install", "mod"]),
  composer: new Set(["install", "require", "update"]),
  deno: new Set(["install"]),
};

/** git subcommands that only fetch from a remote. */
export const GIT_FETCH = new Set(["fetch", "pull", "clone", "ls-remote"]);

/** The options of a plain download: [takes a value?]. Short ones may be clustered (`-sSLo f`). */
const DOWNLOAD_OPTIONS: Record<string, { short: Record<string, boolean>; long: Record<string, boolean> }> = {
  curl: {
    short: { s: false, S: false, L: false, f: false, I: false, O: false, v: false, k: false, i: false, o: true, m: true },
    long: { silent: false, "show-error": false, location: false, fail: false, "fail-with-body": false, head: false, "remote-name": false, verbose: false, compressed: false, include: false, insecure: false, "no-progress-meter": false, "create-dirs": false, output: true, "max-time": true, "connect-timeout": true, retry: true },
  },
  wget: {
    short: { q: false, c: false, N: false, O: true, P: true, t: true, T: true },
    long: { quiet: false, "no-verbose": false, continue: false, timestamping: false, "no-clobber": false, "output-document": true, "directory-prefix": true, tries: true, timeout: true },
  },
};

/** `curl`/`wget` with nothing but http(s) URLs (each one `host` accepts) and the options of a
 *  plain download. */
function plainDownload(name: string, args: readonly string[], host: (h: string) => boolean = () => true): boolean {
  const known = DOWNLOAD_OPTIONS[name];
  let urls = 0;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.startsWith("--")) {
      const [opt, inline] = a.slice(2).split(/=(.*)/s, 2);
      const takes = known.long[opt];
      if (takes === undefined) return false;
      if (takes && inline === undefined) i++;
      else if (!takes && inline !== undefined) return false;
    } else if (a.startsWith("-") && a.length > 1) {
      if (name === "wget" && (a === "-nv" || a === "-nc")) continue;
      for (let j = 1; j < a.length; j++) {
        const takes = known.short[a[j]];
        if (takes === undefined) return false;
        if (takes) {
          if (j === a.length - 1) i++;
          break; // the rest of the cluster is the value
        }
      }
    } else if (/^https?:\/\//i.test(a)) {
      if (!host(hostOf(a))) return false;
      urls++;
    } else return false;
  }
  return urls > 0;
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^\[|\]$/g, "").toLowerCase();
  } catch {
    return ""; // not a URL curl reads the same way: no host to accept
  }
}

/** A loopback name or address: inside a sandbox without network, the sandbox's own loopback
 *  (and the ports background jobs' servers are forwarded at: the agent's own). */
function loopback(host: string): boolean {
  return host === "localhost" || host.endsWith(".localhost") || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || host === "::1" || host === "0.0.0.0";
}

/** `curl`/`wget` that only download from loopback (`curl -sf http://127.0.0.1:3000/`): in a
 *  sandbox without network that reaches the sandbox's own servers and the agent's forwarded dev
 *  servers, nothing of the host's — contained, like any other command there. */
export function loopbackFetch(name: string, args: readonly string[]): boolean {
  return (name === "curl" || name === "wget") && plainDownload(name, args, loopback);
}

/** Whether this program with these arguments only fetches over the network. */
export function fetchOnly(name: string, args: readonly string[]): boolean {
  if (name === "curl" || name === "wget") return plainDownload(name, args);
  if ((name === "python" || name === "python3") && args[0] === "-m" && args[1] === "pip") return true;
  const subs = PACKAGE_FETCH[name];
  if (!subs) return false;
  const sub = args.find((a) => !a.startsWith("-")) ?? null;
  return subs.has(sub);
}
