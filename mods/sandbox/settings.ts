// The sandbox's settings as the layers give them, and what the sandbox does on this machine
// with them (for the mod itself, `deepcode doctor`, /status and the tests): split from index.ts
// so the mod's hooks read in one sitting.

import type { JsonValue, SettingsLayerView } from "../../src/contract/index.js";
import { isObject } from "../../src/lib/json.js";
import { probeBwrap } from "./bwrap.js";
import { allowedHosts, ruleText, type HostRule } from "./hosts.js";
import { uncontainedOn, type Uncontained } from "./platforms.js";

export interface SandboxSettings {
  enabled?: boolean;
  network?: boolean;
  /** `sandbox.env`: variables passed although nothing else grants them (names, `*` globs). */
  env?: string[];
  /** `sandbox.filesystem.allowRead`: folders or files granted read-only. */
  allowRead?: string[];
  /** `sandbox.filesystem.allowWrite`: folders granted read-write (as additionalDirectories). */
  allowWrite?: string[];
  /** `network.allowedDomains` as read from the layers (hosts.ts); ignored with `network: true`. */
  allowedDomains?: HostRule[];
  /** `sandbox.failIfUnavailable` (Claude Code's key): no sandbox means no command — the file
   *  that says so, for the refusal. Any layer may require it (it only takes away). */
  required?: string;
  /** Where bwrap is looked for: the managed policy's `sandbox.bwrapPath` (the binary), else
   *  SYSTEM_BIN when the managed policy requires the sandbox (never the developer's PATH then). */
  bwrapPath?: string;
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
  /** The seccomp program bwrap loads (seccomp.ts), when active with one. */
  seccomp?: string | null;
  /** Why an active sandbox runs without the seccomp filter, else null. */
  seccompProblem?: string | null;
  /** When not active: what protects the person on this platform, and how to get containment
   *  (platforms.ts). */
  without?: Uncontained;
  /** Settings require the sandbox (`failIfUnavailable`): the file that says so. When it is not
   *  active, commands are refused. */
  required?: string;
}

/** Where bwrap is looked for when the managed policy requires the sandbox and names no binary:
 *  the system's own folders, which a developer's PATH cannot change. */
export const SYSTEM_BIN = "/usr/bin:/bin:/usr/local/bin:/usr/sbin:/sbin";

/** What the sandbox does on this machine with these settings. For `deepcode doctor` and for the
 *  mod itself; checks bwrap once per process (PATH) by starting a real sandbox. */
export function sandboxStatus(settings: SandboxSettings = {}, platform: NodeJS.Platform = process.platform, path: string = process.env.PATH ?? "", arch: string = process.arch): SandboxStatus {
  const network = settings.network === true;
  const allowedDomains = network ? [] : (settings.allowedDomains ?? []).map(ruleText);
  const required = settings.required ? { required: settings.required } : {};
  if (settings.enabled === false) {
    const detail = "turned off in settings (sandbox.enabled: false)";
    const without = uncontainedOn(platform, detail, true);
    return { active: false, mechanism: null, network: true, allowedDomains: [], detail, bwrap: null, without, ...required };
  }
  // The managed policy's binary, else (when it requires the sandbox) the system folders only.
  const exact = settings.bwrapPath && settings.bwrapPath !== SYSTEM_BIN ? settings.bwrapPath : undefined;
  const probe = probeBwrap(platform, settings.bwrapPath === SYSTEM_BIN ? SYSTEM_BIN : path, arch, exact);
  if (!probe.bwrap) {
    const where = exact ? " (the managed policy's sandbox.bwrapPath)" : settings.bwrapPath ? " (looked for only in the system folders, as the managed policy requires the sandbox)" : "";
    const detail = `${probe.problem ?? "not available"}${where}`;
    return { active: false, mechanism: null, network: true, allowedDomains: [], detail, bwrap: null, without: uncontainedOn(platform, detail), ...required };
  }
  return {
    ...required,
    active: true,
    mechanism: "bwrap",
    network,
    allowedDomains,
    detail: `bubblewrap (${probe.bwrap}): files read-only outside the workspace, private /tmp, ${probe.seccomp ? "no unix sockets" : "known host sockets hidden"}, ${networkLine(network, allowedDomains)}`,
    bwrap: probe.bwrap,
    seccomp: probe.seccomp ?? null,
    seccompProblem: probe.seccompProblem ?? null,
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
  // Required by the highest layer that says true (a lower "false" cannot undo a higher "true"):
  // any layer may require it; the managed policy's requirement also fixes where bwrap is found.
  const requiring = [...layers].reverse().find((l) => isObject(l.settings.sandbox) && l.settings.sandbox.failIfUnavailable === true);
  if (requiring) settings.required = requiring.file;
  else if (layers.length === 0 && v.failIfUnavailable === true) settings.required = "settings";
  const managed = layers.find((l) => l.name === "managed" && isObject(l.settings.sandbox));
  const managedBox = managed && isObject(managed.settings.sandbox) ? managed.settings.sandbox : undefined;
  if (typeof managedBox?.bwrapPath === "string" && managedBox.bwrapPath !== "") settings.bwrapPath = managedBox.bwrapPath;
  else if (managedBox?.failIfUnavailable === true) settings.bwrapPath = SYSTEM_BIN;
  for (const l of layers) {
    if (l.name === "managed" || !isObject(l.settings.sandbox) || l.settings.sandbox.bwrapPath === undefined) continue;
    warn(`${l.file}: sandbox.bwrapPath counts only in the managed policy; ignored here`);
  }
  const strings = (x: JsonValue | undefined): string[] => (Array.isArray(x) ? x.filter((s): s is string => typeof s === "string" && s !== "") : []);
  if (strings(v.env).length > 0) settings.env = strings(v.env);
  if (isObject(v.filesystem)) {
    if (strings(v.filesystem.allowRead).length > 0) settings.allowRead = strings(v.filesystem.allowRead);
    if (strings(v.filesystem.allowWrite).length > 0) settings.allowWrite = strings(v.filesystem.allowWrite);
  }
  if (v.network === true) settings.network = true;
  // An explicit `network: false` in force (the highest layer that sets it) means no hosts at all.
  else if (v.network !== false && (isObject(v.network) || layers.length > 0)) {
    const hosts = allowedHosts(layers, v, warn);
    if (hosts.length > 0) settings.allowedDomains = hosts;
  }
  return settings;
}

