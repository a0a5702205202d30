// Built-in mod: the Bash sandbox. A hook on `process.run` that, where bubblewrap works (Linux),
// runs every process a tool starts inside it: the file system read-only except the workspace,
// `permissions.additionalDirectories` and a private /tmp; home-folder secrets hidden; the
// workspace's protected paths (.deepcode/ — created empty if missing —, .claude settings and
// commands, .mcp.json, git config and hooks) read-only; no network unless settings allow it;
// dying with deepcode (bwrap.ts has the details); no unix socket can be created in it, so no
// host socket is reachable (a seccomp filter, seccomp.ts; where the architecture has none or it
// does not load, this says so once and host sockets are hidden by path, sockets.ts). The result
// says `sandbox: "bwrap"`.
//
// Placement: builtin tier, after everything else (`after: ["*"]`; the one step that says so),
// so whatever a plugin hook upstream rewrites, the argv that reaches the core is wrapped. The
// one hook inside it is acp-io's (mods/acp/editor-io.ts), which rewrites nothing: it answers in
// the disk's place only while the sandbox is off, so no hook can unwrap a contained command.
//
// Configuration: settings `sandbox` ({ enabled?: boolean, network?: boolean | { allowedDomains,
// allowManagedDomainsOnly } }) and the folders the person opened
// (`permissions.additionalDirectories`, api.host). `enabled: false` turns it off;
// `network: true` lets commands reach the network; `network.allowedDomains` lets them reach
// those hosts only, through a filtering proxy in this process (proxy.ts; the list and how the
// layers and the managed policy combine: hosts.ts), started at the first command and closed
// at the session's end; each command reaches it through a channel of its own (channel.ts),
// closed when the command ends. A background job (ProcessRunRequest.serve) gets a channel too:
// the ports it listens on inside are forwarded from the host's loopback, never over a taken
// port (serve.ts), and every later command gets those ports on its own loopback, carried to
// deepcode's listeners (forward.ts); the status's `served` names them (the gate lets WebFetch
// reach them without a question). With `network: true` the filter still stops unix sockets: a
// resolver reached through one (nscd, systemd-resolved's varlink socket) is not used, and
// glibc falls back to the DNS servers resolv.conf names (systemd-resolved's 127.0.0.53 works:
// UDP). A request's
// own `network: false` tightens that; its `network: true` cannot loosen settings (a tool does
// not get to lift the policy). A request's `readOnly: true` (plan mode) binds every folder
// read-only. Where bubblewrap is not available, this says so once at start, and the permission
// gate and path fence still apply.
//
// Protected folders that do not exist are stood in for by empty read-only folders while a
// command runs (placeholders.ts); the other protected places are watched while it runs and
// undone at once (watch.ts); after each command, protected paths a command created where none
// existed are removed, protected files it changed by moving a folder aside are put back
// (protect.ts), and lifecycle scripts it added to a package.json are taken out again
// (lifecycle.ts); the output says so. A journal in deepcode's home (journal.ts) lets the next
// start here finish that undo when deepcode was killed mid-command (guard.ts).
//
// api.status: { active, mechanism, network, allowedDomains } — the permission gate reads it:
// only a sandbox that is active and cuts the network off contains a command
// (sandbox.autoAllowBashIfSandboxed); with `allowedDomains` (network still false: the proxy
// decides), commands that only fetch run without a prompt too (contained.ts).

import type { KnownStatus, Plugin, PluginApi, ProcessRunRequest, ProcessRunResult, SandboxGrants, ServeNotice } from "../../src/contract/index.js";
import { ConfigError } from "../../src/contract/errors.js";
import { isObject, stringRecord } from "../../src/lib/json.js";
import { wrapArgv, writableDirs } from "./bwrap.js";
import { readSandboxSettings, sandboxStatus, type SandboxSettings } from "./settings.js";
import { startGuard, sweepJournals } from "./guard.js";
import { startProxy, type FilteringProxy } from "./proxy.js";
import { grantEnv, redact } from "./env.js";
import { ensurePrivateHome, inside, launchReadable, namedDirs, privateHome, SYSTEM_DIRS, toolchainDirs } from "./grant.js";
import { secretLocations } from "../../src/contract/protected.js";
import { existsSync } from "node:fs";
import { syncGitConfig } from "./gitconfig.js";
import { homedir } from "node:os";
import { delimiter, isAbsolute, join, resolve } from "node:path";
import { openChannel, type HostChannel, type MuxSocket } from "./channel.js";
import { serveLine, ServedPorts, type ServedJob } from "./serve.js";
import { connect } from "node:net";
import { sandboxSubcommand } from "./command.js";

/** One process to contain (a tool's command, or something deepcode launches). */
interface Containee {
  argv: readonly string[];
  cwd: string;
  env: Record<string, string>;
  clearEnv?: boolean;
  network: boolean;
  /** May reach `allowedDomains` through the proxy (when network is off and there are rules). */
  proxy: boolean;
  readOnly: boolean;
  readable: string[];
  /** Folders outside the workspace it may write (a plugin's data folder), unguarded. */
  keep?: string[];
  /** It runs all session (a stdio MCP server): guard.ts's `session`. */
  session: boolean;
  /** A background job's server (ProcessRunRequest.serve): its ports are forwarded from the
   *  host's loopback (serve.ts), and it hears what became of each. */
  serve?: (n: ServeNotice) => void;
}
interface Contained {
  argv: string[];
  env: Record<string, string>;
  withheld: ReturnType<typeof grantEnv>["withheld"];
  finish(): string[];
  /** Settles when its channel (if any) has closed, after finish. */
  closed(): Promise<void>;
}

/** What the sandbox grants in this run, worked out once at start (the toolchains from deepcode's
 *  PATH): what each command gets, and what the status shows (/status, doctor, the gate). */
function grantsOf(root: string, deepcodeHome: string, writable: readonly string[], settings: SandboxSettings): { home: string; privateHome: string; readable: string[]; tools: string[]; shown: SandboxGrants } {
  const home = process.env.HOME && isAbsolute(process.env.HOME) ? process.env.HOME : homedir();
  const write = writableDirs(root, writable, home);
  const readable = namedDirs(settings.allowRead ?? [], home, root).filter((r) => !write.some((w) => inside(r, w)));
  const tools = toolchainDirs(process.env.PATH ?? "", home, write);
  const priv = privateHome(deepcodeHome, root);
  const plugins = secretLocations(home, deepcodeHome).flatMap((l) => l.sandboxReadable ?? []).filter((d) => existsSync(d));
  const system = SYSTEM_DIRS.filter((d) => existsSync(d));
  const env = grantEnv(process.env, {}, settings.env ?? []);
  const shown: SandboxGrants = { readOnly: [...system, ...tools, ...plugins, ...readable], write, walked: [...write, ...readable], privateHome: priv, home, withheldEnv: env.withheld.map((w) => w.name).sort(), droppedEnv: env.dropped.length };
  return { home, privateHome: priv, readable, tools, shown };
}

export { networkLine, readSandboxSettings, sandboxStatus, type SandboxSettings, type SandboxStatus } from "./settings.js";

const plugin: Plugin = {
  id: "sandbox",
  description: "runs tool processes inside bubblewrap: read-only outside the workspace, no network",
  placement: { tier: "builtin", after: ["*"] },
  register(api) {
    const settings = readSandboxSettings(api.settings.get("sandbox"), api.settings.layers, (m) => api.log.warn(m));
    const writable = [...api.host.additionalDirectories, ...(settings.allowWrite ?? [])];
    const settingsEnv = stringRecord(api.settings.get("env")) ?? {};
    // bwrap is never taken from a PATH folder a contained command can write (the workspace, the
    // extra folders): a planted `bwrap` there would run the next session's commands as they are.
    const status = sandboxStatus(settings, process.platform, pathOutside(process.env.PATH ?? "", [api.root, ...writable]));
    // `deepcode sandbox`. (Tests hand the mod stand-in APIs with only what commands need.)
    if (typeof api.subcommand === "function") api.subcommand(
      sandboxSubcommand(() => ({
        root: api.root,
        deepcodeHome: api.home,
        writable,
        allowRead: settings.allowRead ?? [],
        network: status.network,
        allowedDomains: status.allowedDomains,
        line: status.active ? `${status.detail}; commands whose effects it contains run without a question` : `not active (${status.detail}): ${status.without?.uncontained ?? ""}${status.without?.fix ? `; to contain them: ${status.without.fix}` : ""}`,
      })),
    );
    // What a deepcode killed mid-command left (journal.ts): undone before any command or hook
    // of this session runs — also when the sandbox has been turned off since. This start read
    // the project's settings (and other mods their files) before this mod registered, so when a
    // protected path had to be put back, it stops here (fails closed): the next start reads
    // them as the person left them.
    const swept = sweepJournals(api.root, api.home);
    for (const m of swept.lines) api.log.warn(m);
    if (swept.changed) throw new ConfigError("deepcode ended while a sandboxed command was running last time, and protected paths it changed were put back only now (above); this start had already read the project's settings, so it stops here: start deepcode again");
    const grants = status.active ? grantsOf(api.root, api.home, writable, settings) : undefined;
    // On unless some layer (the managed policy, the person's settings, a flag file) says false:
    // nobody can turn it back on over another layer's no.
    const autoAllow = !api.settings.layers.some((l) => isObject(l.settings.sandbox) && l.settings.sandbox.autoAllowBashIfSandboxed === false);
    const without = status.active ? {} : { detail: status.detail, ...status.without, ...(status.required ? { required: status.required } : {}) };
    // The ports background jobs' servers are forwarded at (serve.ts), for every command after.
    const served = new ServedPorts();
    api.status((): KnownStatus["sandbox"] => {
      const ports = served.ports();
      return { active: status.active, mechanism: status.mechanism, network: status.network, ...(status.allowedDomains.length > 0 ? { allowedDomains: status.allowedDomains } : {}), ...(grants ? { grants: grants.shown } : {}), autoAllow, ...without, ...(ports.length > 0 ? { served: ports } : {}) };
    });
    if (!status.active && status.required) {
      refuseUncontained(api, `the sandbox is required (sandbox.failIfUnavailable in ${status.required}) but not active: ${status.detail}`);
      return;
    }
    if (!status.active || !grants) {
      const fix = status.without?.fix ? ` To contain them: ${status.without.fix}.` : "";
      if (settings.enabled !== false) api.log.warn(`the Bash sandbox is not active: ${status.detail}. Commands still pass the permission gate and the path fence, but run without a sandbox.${fix}`);
      return;
    }
    const bwrap = status.bwrap as string;
    if (status.seccompProblem) api.log.warn(`sandbox: ${status.seccompProblem}; commands run without the filter that stops unix sockets, and only the host sockets deepcode finds by path are hidden.`);
    const rules = status.allowedDomains.length > 0 ? (settings.allowedDomains ?? []) : [];
    // The filtering proxy: started at the first command that may use it, closed at the
    // session's end (a later command, in another session of this process, starts it again).
    let proxy: Promise<FilteringProxy> | undefined;
    api.on("session.end", async (_e, next) => {
      const p = proxy;
      proxy = undefined;
      if (p) await (await p).close();
      return next();
    });
    /** One contained process set up: its argv and environment, and `finish` to call when it
     *  ended (puts protected paths back, closes its channel; returns what was undone). */
    const contain = async (e: Containee): Promise<Contained> => {
      // A channel (channel.ts) when the process needs one: the filtering proxy, a job's server
      // reached from the host (serve.ts), or the ports jobs of this run serve, reached from here.
      const wantsProxy = !e.network && rules.length > 0 && e.proxy;
      const serving = !e.network && e.serve !== undefined;
      const ports = !e.network && e.proxy ? served.ports() : [];
      // While a serving job runs, a command hears of the ports it forwards later, too.
      const watch = !e.network && e.proxy && served.watching();
      let channel: HostChannel | undefined;
      let job: ServedJob | undefined;
      if (wantsProxy || serving || ports.length > 0 || watch) {
        let socketPath: string | undefined;
        if (wantsProxy) {
          proxy ??= startProxy(rules).catch((err: Error) => {
            proxy = undefined; // the next command tries again; this one fails (no proxy, no network)
            throw new Error(`deepcode sandbox: cannot start the filtering proxy for sandbox.network.allowedDomains: ${err.message}`);
          });
          socketPath = (await proxy).socketPath;
        }
        const accept = (service: string): MuxSocket | null => {
          if (service === "proxy") return socketPath ? connect({ path: socketPath, allowHalfOpen: true }) : null;
          if (service === "ports") return job ? job.accept() : null;
          if (service === "served") return watch ? served.watcher() : null;
          return served.client(service);
        };
        try {
          channel = openChannel(accept);
        } catch (err) {
          throw new Error(`deepcode sandbox: cannot open the channel for this command's network: ${(err as Error).message}`, { cause: err });
        }
        if (e.serve) job = served.job(channel.mux, e.serve);
      }
      // The environment and the files, by grant (env.ts, grant.ts).
      const { home, privateHome: priv, tools } = grants;
      // What this run reads beyond the grants, already judged by the gate (Grep's search path)
      // or named by its own configuration (a hook's script).
      const readable = [...grants.readable, ...e.readable];
      // Settings `env` (the person's or the administrator's variables) pass as named there.
      const granted = grantEnv(e.clearEnv ? {} : process.env, e.clearEnv ? e.env : { ...settingsEnv, ...e.env }, settings.env);
      granted.env.HOME = home;
      ensurePrivateHome(priv);
      syncGitConfig(home, priv);
      const dirs = e.readOnly ? [] : writableDirs(api.root, writable);
      // Stand-ins, snapshot, journal and watch first (guard.ts): the stand-ins must exist when
      // the mounts are worked out, to be bound read-only.
      const guard = startGuard(api.root, api.home, dirs, { session: e.session });
      let argv: string[];
      try {
        const forward = { proxy: wantsProxy, serve: serving, ports, watch };
        argv = wrapArgv(e.argv, { bwrap, root: api.root, deepcodeHome: api.home, writable: [...writable, ...(e.keep ?? [])], network: e.network, cwd: e.cwd, readOnly: e.readOnly, seccomp: status.seccomp, channel: channel?.files, forward, home, privateHome: priv, readable, tools, denied: (p) => api.readDenied(p) });
      } catch (err) {
        await job?.release();
        await channel?.close();
        guard.finish();
        throw err;
      }
      let closed = false;
      let closing: Promise<void> = Promise.resolve();
      return {
        argv,
        env: granted.env,
        withheld: granted.withheld,
        finish: () => {
          if (closed) return [];
          closed = true;
          // The process has ended (a background job's run ends with its process): its forwarded
          // ports and its channel too.
          const release = job ? job.release() : Promise.resolve();
          if (channel) {
            const c = channel;
            closing = release.then(() => c.close()).catch((err: Error) => api.log.warn(`sandbox: closing a command's channel: ${err.message}`));
          } else closing = release;
          // Also when the run failed or was interrupted: what it created must not outlive it.
          const undone = guard.finish();
          if (undone.length > 0) api.log.warn(`sandbox: ${undone.join("; ")}`);
          return undone;
        },
        closed: () => closing,
      };
    };
    api.on("process.run", async (e, next): Promise<ProcessRunResult> => {
      const network = status.network && e.network !== false;
      const readOnly = e.readOnly === true;
      const c = await contain({ argv: e.argv, cwd: e.cwd, env: e.env ?? {}, clearEnv: e.clearEnv, network, proxy: e.network !== false, readOnly, readable: namedDirs(e.grantRead ?? [], grants.home, e.cwd), session: false, ...(e.serve ? { serve: (n: ServeNotice) => tellServe(e, n) } : {}) });
      let undone: string[];
      let r: ProcessRunResult;
      try {
        r = await next({ ...e, argv: c.argv, env: c.env, clearEnv: true });
      } finally {
        undone = c.finish();
        await c.closed();
      }
      const note = undone.length > 0 ? `\n[deepcode sandbox: protected paths are never written by a command; ${undone.join("; ")}]\n` : "";
      return { ...r, stdout: redact(r.stdout, c.withheld), stderr: redact(r.stderr, c.withheld) + note, sandbox: "bwrap" };
    });
    // What deepcode itself starts from configuration — hooks, stdio MCP servers — runs contained
    // too (issue 35, item 5): it may run a file a contained command rewrote. These are the
    // person's configured programs, many of which exist to reach a service: they get the network
    // unless `sandbox.network.allowedDomains` narrows it (then the proxy, as for commands), and
    // read-only what their configuration names outside the workspace (launchReadable); a
    // plugin's data folder read-write. For one that runs all session (an MCP server), what
    // appears at a protected path is removed at once, but a protected file that changes is the
    // person's (inside, it is read-only): not taken back (guard.ts, `session`).
    // `unsandboxed` (`"sandbox": false` in the person's own layers) starts it as it is.
    const saidOutside = new Set<string>();
    api.on("process.launch", async (e, next) => {
      if (e.unsandboxed) {
        // Said once per hook or server, not at each of its runs.
        const key = `${e.purpose}:${e.name}`;
        if (!saidOutside.has(key)) {
          saidOutside.add(key);
          api.log.warn(`sandbox: ${e.purpose === "mcp" ? "MCP server" : "hook"} ${JSON.stringify(e.name.slice(0, 80))} runs outside the sandbox ("sandbox": false in your settings)`);
        }
        return next();
      }
      const network = status.network || rules.length === 0;
      const named = launchReadable(e.readable ?? [], grants.home);
      // A plugin's own data folder (`${CLAUDE_PLUGIN_DATA}`, under deepcode's home) is where its
      // hooks and servers keep state: read-write for them; the rest of what is named, read-only.
      const data = join(api.home, "plugins", "data");
      const keep = named.filter((p) => p !== data && inside(p, data));
      const c = await contain({ argv: e.argv, cwd: e.cwd, env: e.env, clearEnv: e.clearEnv, network, proxy: true, readOnly: false, readable: named.filter((p) => !keep.includes(p)), keep, session: e.purpose === "mcp" });
      return { argv: c.argv, env: c.env, sandbox: "bwrap", ended: c.finish };
    });
  },
};

export default plugin;

/** Settings require a sandbox that is not there: no command runs (the gate denies Bash first;
 *  this is the floor for any other caller of process.run), and nothing deepcode launches from
 *  configuration either — but what a person's own layer or the managed policy explicitly runs
 *  outside the sandbox (`"sandbox": false`). Said once at start. */
function refuseUncontained(api: PluginApi, why: string): void {
  api.log.warn(`${why}. Commands are refused until it works.`);
  api.on("process.run", async () => {
    throw new Error(`deepcode refused to run the command: ${why}`);
  });
  api.on("process.launch", async (e, next) => {
    if (e.unsandboxed) return next();
    throw new Error(`deepcode refused to start ${e.purpose === "mcp" ? "MCP server" : "hook"} ${JSON.stringify(e.name.slice(0, 80))}: ${why}`);
  });
}

/** PATH without the folders inside `writable` (where a contained command could plant a binary). */
function pathOutside(path: string, writable: readonly string[]): string {
  return path.split(delimiter).filter((d) => d !== "" && isAbsolute(d) && !writable.some((w) => inside(resolve(d), resolve(w)))).join(delimiter);
}

/** A serving command hears what became of a port: its own callback, and a line in its output. */
function tellServe(e: ProcessRunRequest, n: ServeNotice): void {
  try {
    e.onServe?.(n);
    const line = serveLine(n);
    if (line) e.onOutput?.(line);
  } catch {
    // the caller's listener failed: the port's state does not depend on it being heard
  }
}
