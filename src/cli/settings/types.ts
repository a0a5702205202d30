// Types shared by the settings loader and the permission rules.

import type { JsonValue } from "../../contract/index.js";

/** The five settings layers, low to high. */
export const SETTINGS_LAYERS = ["user", "project", "local", "flag", "managed"] as const;
export type SettingsLayerName = (typeof SETTINGS_LAYERS)[number];
/** Where a rule came from: a settings layer, or the session's `a` answers (allow rules only). */
export type RuleLayer = SettingsLayerName | "session";

export type RuleKind = "allow" | "ask" | "deny";

export type Settings = { [key: string]: JsonValue };

export interface SettingsLayer {
  name: SettingsLayerName;
  file: string;
  /** The file's known keys (unknown and ignored keys dropped); `{}` when absent. */
  settings: Settings;
  present: boolean;
  /** Where each key path stands in the file (for rule positions in messages). */
  positions?: ReadonlyMap<string, { line: number; column: number }>;
}

/** A permission rule as written, with where it came from. */
export interface RuleSource {
  kind: RuleKind;
  text: string;
  layer: RuleLayer;
  file?: string;
  line?: number;
  column?: number;
}

export interface ManagedState {
  /** The managed settings file (a parameter of loadSettings, never read from the environment). */
  path: string;
  /** `managed-settings.d/` next to it: drop-in files merged in name order after the file. */
  dropInDir: string;
  /** absent: no managed policy; ok: loaded; broken: a managed file is malformed → deny-all. */
  state: "absent" | "ok" | "broken";
  /** The managed files that were found, in merge order. */
  files: string[];
  /** Why the policy is broken (file:line:column: message). */
  problem?: string;
}

export interface LoadedSettings {
  /** Every layer in merge order; the managed layer has one entry per file (file, then drop-ins). */
  layers: SettingsLayer[];
  /** Keys merged per key (later layer wins; objects merge one level); permission rule arrays,
   *  `permissions.additionalDirectories` and `hooks` lists accumulate across layers. */
  merged: Settings;
  /** Every permission rule in layer order, each with its layer and file. */
  rules: RuleSource[];
  /** Said once at start: unknown keys, ignored Claude Code keys, a broken managed policy. */
  warnings: string[];
  managed: ManagedState;
}
