// Workspace trust: a project is untrusted until its person says otherwise. Untrusted, its own
// files may only tighten (deny and ask rules, a lower budget, the sandbox on); what loosens a
// rule or runs code (allow rules, hooks, plugins, sandbox off, extra folders, MCP servers,
// commands' allowed-tools and !`cmd`) is left out and named. The user, flag and managed layers
// are the person's and the administrator's: trusted as always.
//
// Trusted means one of: the person said so for exactly this content (the store's digest
// matches), `--trust-project` for this run, or a `trustedProjects` entry in the user, flag or
// managed settings (for CI). A project whose content changed since the answer is asked about
// again, whichever the answer was; a declined, unchanged one is not (`/trust` or `deepcode
// trust` changes it).

import { homedir } from "node:os";
import { isAbsolute, join, relative, sep } from "node:path";
import { withLayers } from "../settings/load.js";
import type { LoadedSettings } from "../settings/types.js";
import { trustDigest, trustItems, untrustedLayers, PROJECT_LAYERS, type TrustItem } from "./items.js";
import { TrustStore, type TrustRecord } from "./store.js";
import { inert } from "../../lib/inert.js";
import { projectStoreKey } from "../../lib/project-store.js";

export { TrustStore, trustDigest, trustItems, type TrustItem, type TrustRecord };

export interface TrustOptions {
  root: string;
  home: string;
  /** The person's home folder (`~` in `trustedProjects`, `~/.claude/commands`). */
  userHome?: string;
  /** Every layer as read, before trust is applied. */
  settings: LoadedSettings;
  /** `--trust-project`: trusted for this run (not remembered). */
  flag?: boolean;
}

export interface TrustState {
  /** The project's real path: what the store and `trustedProjects` name. */
  root: string;
  trusted: boolean;
  /** How it is trusted, or why it is not. */
  how: "store" | "flag" | "setting" | "not-asked" | "changed" | "declined";
  /** What needs trust (applied when trusted, left out when not). */
  items: TrustItem[];
  digest: string;
  record?: TrustRecord;
  /** The setting that trusts it (`trustedProjects` in which file). */
  setting?: string;
  /** The trust store could not be read. */
  storeProblem?: string;
}

/**
 * Did the trust in force cover this exact project content, as it was at start? What trust
 * grants is checked when it is used: a command file added or changed since (its
 * `allowed-tools`, its !`cmd` lines) was never shown to the person, so it is not covered.
 * `kind` is the item's key suffix (`allowed-tools`, `!cmd`); an empty `value` grants nothing
 * and is covered.
 */
export function trustCovers(state: TrustState, file: string, kind: string, value: readonly string[]): boolean {
  if (value.length === 0) return true;
  if (!state.trusted) return false;
  const want = JSON.stringify(value);
  return state.items.some((i) => i.file === file && i.key.startsWith("command ") && i.key.endsWith(` ${kind}`) && JSON.stringify(i.value) === want);
}

export function resolveTrust(o: TrustOptions): TrustState {
  const root = projectStoreKey(o.root);
  const items = trustItems({ root: o.root, home: o.home, userHome: o.userHome, settings: o.settings });
  const digest = trustDigest(o.root, items);
  const store = new TrustStore(o.home);
  const record = store.get(root);
  const base = { root, items, digest, record, storeProblem: store.problem };
  if (o.flag) return { ...base, trusted: true, how: "flag" };
  const setting = trustingSetting(o.settings, root, o.userHome ?? homedir());
  if (setting) return { ...base, trusted: true, how: "setting", setting };
  if (record?.digest === digest) return { ...base, trusted: record.trusted, how: record.trusted ? "store" : "declined" };
  if (record) return { ...base, trusted: false, how: "changed" };
  return { ...base, trusted: false, how: "not-asked" };
}

/** The settings in force: everything when trusted; otherwise the project layers cut down. */
export function applyTrust(settings: LoadedSettings, state: TrustState): LoadedSettings {
  if (state.trusted) return settings;
  return withLayers(settings, untrustedLayers(settings).layers);
}

/** The REPL asks when something would take effect and the person has not answered for it. */
export function needsQuestion(state: TrustState): boolean {
  return !state.trusted && state.items.length > 0 && (state.how === "not-asked" || state.how === "changed");
}

/** Remember the person's answer for this project's current content. */
export function rememberTrust(home: string, state: TrustState, trusted: boolean): void {
  new TrustStore(home).set(state.root, trusted, state.digest);
}

export function forgetTrust(home: string, root: string): boolean {
  return new TrustStore(home).forget(projectStoreKey(root));
}

/** One line for `/status` and `deepcode doctor`. */
export function trustLine(state: TrustState): string {
  const n = state.items.length;
  const what = `${n} setting${n === 1 ? "" : "s"} or command${n === 1 ? "" : "s"} that loosen rules or run code`;
  switch (state.how) {
    case "store":
      return `trusted (you trusted it ${state.record?.at.slice(0, 10) ?? ""}; ${n ? `${what} apply` : "nothing in it needs trust"})`;
    case "flag":
      return "trusted for this run (--trust-project)";
    case "setting":
      return `trusted by trustedProjects in ${state.setting}`;
    default:
      if (n === 0) return "untrusted (nothing in it needs trust)";
      return `untrusted: ${what} ${n === 1 ? "is" : "are"} ignored${state.how === "changed" ? " (it changed since you answered)" : state.how === "declined" ? " (you declined)" : ""} — \`deepcode trust\` or /trust to trust it`;
  }
}

/** The items, one per line, for the trust question and `deepcode trust`. */
/** One line per item, inert: a hook command or a file name is the project's text, and a control
 *  character in it must not redraw the question it appears in. */
export function describeItems(state: TrustState, rootForPaths: string): string[] {
  return state.items.map((i) => inert(`${i.what}  (${relative(rootForPaths, i.file) || i.file})`));
}

/** What `-p` and subcommands say when an untrusted project's content is left out. */
export function untrustedWarning(state: TrustState): string | undefined {
  if (state.trusted || state.items.length === 0) return undefined;
  const list = describeItems(state, state.root);
  const shown = list.slice(0, 6).join("; ");
  const more = list.length > 6 ? `; and ${list.length - 6} more` : "";
  const why = state.how === "changed" ? " (what it holds changed since you answered)" : state.how === "declined" ? " (you declined to trust it)" : "";
  return `this project is not trusted${why}, so deepcode ignored: ${shown}${more}. Trust it with \`deepcode trust\` (or pass --trust-project for one run).`;
}

/** A `trustedProjects` entry of a layer the person or administrator owns that names this root:
 *  a path (the project itself) or `path/**` (every project below it). */
function trustingSetting(settings: LoadedSettings, root: string, userHome: string): string | undefined {
  for (const layer of settings.layers) {
    if (PROJECT_LAYERS.has(layer.name)) continue;
    const list = layer.settings.trustedProjects;
    if (!Array.isArray(list)) continue;
    for (const entry of list) {
      if (typeof entry !== "string" || entry === "") continue;
      const below = entry.endsWith("/**");
      const path = expand(below ? entry.slice(0, -3) : entry, userHome);
      if (!isAbsolute(path)) continue; // a relative entry would mean a different folder per run
      const p = projectStoreKey(path);
      if (p === root || (below && root.startsWith(p.endsWith(sep) ? p : p + sep))) return layer.file;
    }
  }
  return undefined;
}

function expand(p: string, userHome: string): string {
  return p === "~" ? userHome : p.startsWith("~/") ? join(userHome, p.slice(2)) : p;
}
