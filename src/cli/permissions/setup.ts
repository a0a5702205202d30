// From loaded settings to what the gate needs: compiled rules (warnings said once at start),
// the extra fence folders, and whether the managed policy is broken.

import type { LoadedSettings } from "../settings/types.js";
import { compileRules, parseRule, type Rule } from "./rules.js";

export interface PermissionSetup {
  /** The settings layers' rules; add the session's (SessionRules) at each check. */
  rules: Rule[];
  /** Rules ignored because they cannot be parsed or cannot apply: print once at start. */
  warnings: string[];
  /** `permissions.additionalDirectories` of every layer (relative to the root, `~` allowed). */
  additionalDirectories: string[];
  /** The managed policy cannot be applied — a malformed managed file, or a managed deny or ask
   *  rule that cannot be parsed: every tool call is denied and every write refused. */
  managedBroken: boolean;
}

export function permissionSetup(loaded: LoadedSettings): PermissionSetup {
  // An administrator's deny or ask rule that cannot be parsed would silently stop denying if it
  // were dropped like other layers' rules: the policy is broken instead (deny all, said on every
  // start), as a malformed managed file is. An unparseable managed allow rule only allows less,
  // so it is dropped with the usual warning.
  const broken: string[] = [];
  const sources = loaded.rules.filter((r) => {
    if (r.layer !== "managed" || r.kind === "allow") return true;
    const parsed = parseRule(r);
    if (!("problem" in parsed)) return true;
    const at = r.file ? (r.line ? `${r.file}:${r.line}:${r.column ?? 1}` : r.file) : "managed policy";
    broken.push(`MANAGED POLICY IS BROKEN: ${at}: ${r.kind} rule ${JSON.stringify(r.text)} cannot be applied (${parsed.problem}) — every tool call is denied until an administrator fixes it`);
    return false;
  });
  const { rules, warnings } = compileRules(sources);
  warnings.push(...broken);
  const perms = loaded.merged.permissions;
  const dirs = typeof perms === "object" && perms !== null && !Array.isArray(perms) ? perms.additionalDirectories : undefined;
  return {
    rules,
    warnings,
    additionalDirectories: Array.isArray(dirs) ? dirs.filter((d): d is string => typeof d === "string") : [],
    managedBroken: loaded.managed.state === "broken" || broken.length > 0,
  };
}
