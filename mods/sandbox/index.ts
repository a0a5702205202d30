// Built-in mod: the Bash sandbox. A hook on `process.run` that, where bubblewrap works (Linux),
// runs every process a tool starts inside it: the file system read-only except the workspace,
// `permissions.additionalDirectories` and a private /tmp; home-folder secrets hidden; the
// workspace's protected paths (.deepcode/ — created empty if missing —, .claude settings and
// commands, .mcp.json, git config and hooks) read-only; no network unless settings allow it;
// dying with deepcode (bwrap.ts has the details). The result says `sandbox: "bwrap"`.
//
// Placement: builtin tier, after everything else (`after: ["*"]`), so its hook is the innermost
// on `process.run`: whatever a plugin hook upstream rewrites, the argv that reaches the core is
// wrapped — no hook can unwrap it, because none runs after it.
//
// Configuration: settings `sandbox` ({ enabled?: boolean, network?: boolean | { allowedDomains,
// allowManagedDomainsOnly } }) and the folders the person opened
// (`permissions.additionalDirectories`, api.host). `enabled: false` turns it off;
// `network: true` lets commands reach the network; `network.allowedDomains` lets them reach
// those hosts only, through a filtering proxy in this process (proxy.ts; the list and how the
// layers and the managed policy combine: hosts.ts), started at the first command and closed
// at the session's end. A request's
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

import type { JsonValue, KnownStatus, Plugin, ProcessRunResult, SettingsLayerView } from "../../src/contract/index.js";
import { ConfigError } from "../../src/contract/errors.js";
import { isObject } from "../../src/lib/json.js";
import { probeBwrap, wrapArgv, writableDirs } from "./bwrap.js";
import { startGuard, sweepJournals } from "./guard.js";
import { allowedHosts, ruleText, type HostRule } from "./hosts.js";
import { startProxy, type FilteringProxy } from "./proxy.js";

export interface SandboxSettings {
  enabled?: boolean;
  network?: boolean;
  /** `network.allowedDomains` as read from the layers (hosts.ts); ignored with `network: true`. */
  allowedDomains?: HostRule[];
}

export interface SandboxStatus {
  /** Commands run inside the sandbox. */
  active: boolean;
  /** "bwrap" when active. */
  mechanism: "bwrap" | null;
  /** Commands may reach the network (only meaningful when active). */
  network: boolean;
  /** With network false: the hosts commands reach through the filtering proxy (empty: none). */
  allowedDomains: string[];
  /** One line for people: why it is on or off. */
  detail: string;
  /** The bwrap binary in use, when there is one that works. */
  bwrap: string | null;
}

/** What the sandbox does on this machine with these settings. For `deepcode doctor` and for the
 *  mod itself; checks bwrap once per process (PATH) by starting a real sandbox. */
export function sandboxStatus(settings: SandboxSettings = {}, platform: NodeJS.Platform = process.platform, path: string = process.env.PATH ?? ""): SandboxStatus {
  const network = settings.network === true;
  const allowedDomains = network ? [] : (settings.allowedDomains ?? []).map(ruleText);
  if (settings.enabled === false) return { active: false, mechanism: null, network: true, allowedDomains: [], detail: "turned off in settings (sandbox.enabled: false)", bwrap: null };
  const probe = probeBwrap(platform, path);
  if (!probe.bwrap) return { active: false, mechanism: null, network: true, allowedDomains: [], detail: probe.problem ?? "not available", bwrap: null };
  return {
    active: true,
    mechanism: "bwrap",
    network,
    allowedDomains,
    detail: `bubblewrap (${probe.bwrap}): files read-only outside the workspace, private /tmp, ${networkLine(network, allowedDomains)}`,
    bwrap: probe.bwrap,
  };
}

/** What an active sandbox lets commands reach, in a few words (status lines, doctor). */
export function networkLine(network: boolean, allowedDomains: readonly string[]): string {
  if (network) return "network allowed";
  return allowedDomains.length > 0 ? `network only to ${allowedDomains.join(", ")} (through deepcode's filtering proxy)` : "no network";
}

/** Settings `sandbox`: `enabled`, `network: true`, and Claude Code's object form
 *  `network: { allowedDomains, allowManagedDomainsOnly }` read from the layers (hosts.ts).
 *  `warn` hears each host entry left out. */
export function readSandboxSettings(v: JsonValue | undefined, layers: readonly SettingsLayerView[] = [], warn: (m: string) => void = () => undefined): SandboxSettings {
  const settings: SandboxSettings = {};
  if (!isObject(v)) return settings;
  if (typeof v.enabled === "boolean") settings.enabled = v.enabled;
  if (v.network === true) settings.network = true;
  // An explicit `network: false` in force (the highest layer that sets it) means no hosts at all.
  else if (v.network !== false && (isObject(v.network) || layers.length > 0)) {
    const hosts = allowedHosts(layers, v, warn);
    if (hosts.length > 0) settings.allowedDomains = hosts;
  }
  return settings;
}

const plugin: Plugin = {
  id: "sandbox",
  description: "runs tool processes inside bubblewrap: read-only outside the workspace, no network",
  placement: { tier: "builtin", after: ["*"] },
  register(api) {
    const settings = readSandboxSettings(api.settings.get("sandbox"), api.settings.layers, (m) => api.log.warn(m));
    const writable = [...api.host.additionalDirectories];
    const status = sandboxStatus(settings);
    // What a deepcode killed mid-command left (journal.ts): undone before any command or hook
    // of this session runs — also when the sandbox has been turned off since. This start read
    // the project's settings (and other mods their files) before this mod registered, so when a
    // protected path had to be put back, it stops here (fails closed): the next start reads
    // them as the person left them.
    const swept = sweepJournals(api.root, api.home);
    for (const m of swept.lines) api.log.warn(m);
    if (swept.changed) throw new ConfigError("deepcode ended while a sandboxed command was running last time, and protected paths it changed were put back only now (above); this start had already read the project's settings, so it stops here: start deepcode again");
    api.status((): KnownStatus["sandbox"] => ({ active: status.active, mechanism: status.mechanism, network: status.network, ...(status.allowedDomains.length > 0 ? { allowedDomains: status.allowedDomains } : {}) }));
    if (!status.active) {
      if (settings.enabled !== false) api.log.warn(`the Bash sandbox is not active: ${status.detail}. Commands still pass the permission gate and the path fence, but run without a sandbox.`);
      return;
    }
    const bwrap = status.bwrap as string;
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
    api.on("process.run", async (e, next): Promise<ProcessRunResult> => {
      const network = status.network && e.network !== false;
      const readOnly = e.readOnly === true;
      let proxySocket: string | undefined;
      if (!network && rules.length > 0 && e.network !== false) {
        proxy ??= startProxy(rules).catch((err: Error) => {
          proxy = undefined; // the next command tries again; this one fails (no proxy, no network)
          throw new Error(`deepcode sandbox: cannot start the filtering proxy for sandbox.network.allowedDomains: ${err.message}`);
        });
        proxySocket = (await proxy).socketPath;
      }
      const dirs = readOnly ? [] : writableDirs(api.root, writable);
      // Stand-ins, snapshot, journal and watch first (guard.ts): the stand-ins must exist when
      // the mounts are worked out, to be bound read-only.
      const guard = startGuard(api.root, api.home, dirs);
      let undone: string[];
      let r: ProcessRunResult;
      try {
        const argv = wrapArgv(e.argv, { bwrap, root: api.root, deepcodeHome: api.home, writable, network, cwd: e.cwd, readOnly, proxySocket });
        r = await next({ ...e, argv });
      } finally {
        // Also when the run failed or was interrupted: what it created must not outlive it.
        undone = guard.finish();
        if (undone.length > 0) api.log.warn(`sandbox: ${undone.join("; ")}`);
      }
      const note = undone.length > 0 ? `\n[deepcode sandbox: protected paths are never written by a command; ${undone.join("; ")}]\n` : "";
      return { ...r, stderr: r.stderr + note, sandbox: "bwrap" };
    });
  },
};

export default plugin;
