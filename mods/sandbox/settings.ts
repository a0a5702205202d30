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
}

/** What the sandbox does on this machine with these settings. For `deepcode doctor` and for the
 *  mod itself; checks bwrap once per process (PATH) by starting a real sandbox. */
export function sandboxStatus(settings: SandboxSettings = {}, platform: NodeJS.Platform = process.platform, path: string = process.env.PATH ?? "", arch: string = process.arch): SandboxStatus {
  const network = settings.network === true;
  const allowedDomains = network ? [] : (settings.allowedDomains ?? []).map(ruleText);
  if (settings.enabled === false) {
    const detail = "turned off in settings (sandbox.enabled: false)";
    return { active: false, mechanism: null, network: true, allowedDomains: [], detail, bwrap: null, without: uncontainedOn(platform, detail, true) };
  }
  const probe = probeBwrap(platform, path, arch);
  if (!probe.bwrap) {
    const detail = probe.problem ?? "not available";
    return { active: false, mechanism: null, network: true, allowedDomains: [], detail, bwrap: null, without: uncontainedOn(platform, detail) };
  }
  return {
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

