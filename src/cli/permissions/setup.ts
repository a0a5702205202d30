// From loaded settings to what the gate needs: compiled rules (warnings said once at start),
// the extra fence folders, and whether the managed policy is broken.

import type { LoadedSettings } from "../settings/types.js";
import { compileRules, type Rule } from "./rules.js";

export interface PermissionSetup {
  /** The settings layers' rules; add the session's (SessionRules) at each check. */
  rules: Rule[];
  /** Rules ignored because they cannot be parsed or cannot apply: print once at start. */
  warnings: string[];
  /** `permissions.additionalDirectories` of every layer (relative to the root, `~` allowed). */
  additionalDirectories: string[];
  managedBroken: boolean;
}

export function permissionSetup(loaded: LoadedSettings): PermissionSetup {
  const { rules, warnings } = compileRules(loaded.rules);
  const perms = loaded.merged.permissions;
  const dirs = typeof perms === "object" && perms !== null && !Array.isArray(perms) ? perms.additionalDirectories : undefined;
  return {
    rules,
    warnings,
    additionalDirectories: Array.isArray(dirs) ? dirs.filter((d): d is string => typeof d === "string") : [],
    managedBroken: loaded.managed.state === "broken",
  };
}
