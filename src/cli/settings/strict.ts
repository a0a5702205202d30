// Strict reading of the managed layer (load.ts `readSettingsFile(…, { strict: true })`): what a
// lenient read warns about and drops is, in a managed file, a policy deepcode cannot apply
// exactly as written — so it breaks the policy (deny-all) instead.

import type { JsonValue } from "../../contract/index.js";
import { type CheckIssue } from "./schema.js";
import { isObject } from "../../lib/json.js";
import type { Settings } from "./types.js";

/**
 * Claude Code keys deepcode does not apply but that may stand in a managed file, because ignoring
 * them can only leave deepcode as strict as written or stricter: a bypass mode deepcode does not
 * have, permissions to loosen the sandbox or to start servers deepcode never grants, commands
 * deepcode never runs, and looks — and `forceLoginMethod`/`forceLoginOrgUUID`, which restrict a
 * Claude account sign-in deepcode does not have (it uses a DeepSeek API key; load.ts names them
 * in one line). Not here (so a managed file holding them is broken): `disabledMcpjsonServers`
 * (it asks for a restriction deepcode would not enforce) and `defaultMode: "plan"`.
 */
export const MANAGED_IGNORABLE: ReadonlySet<string> = new Set([
  "permissions.disableBypassPermissionsMode",
  "permissions.defaultMode", // but not "plan" (strictProblem)
  "sandbox.excludedCommands",
  "sandbox.allowUnsandboxedCommands",
  "sandbox.enableWeakerNestedSandbox",
  "apiKeyHelper",
  "awsAuthRefresh",
  "awsCredentialExport",
  "otelHeadersHelper",
  "cleanupPeriodDays",
  "includeCoAuthoredBy",
  "spinnerTipsEnabled",
  "alwaysThinkingEnabled",
  "enableAllProjectMcpServers",
  "enabledMcpjsonServers",
  "forceLoginMethod",
  "forceLoginOrgUUID",
]);

/** Strict reading (the managed layer): what a lenient read would warn about and drop is an error. */
export function strictProblem(issue: CheckIssue, settings: Settings): string | null {
  if (issue.kind === "unknown") return `${issue.message.replace(/ \(ignored\)$/, "")}: deepcode cannot apply a managed policy it does not understand`;
  if (issue.kind !== "ignored") return null;
  const plan = issue.path === "permissions.defaultMode" && valueAt(settings, issue.path) === "plan";
  if (MANAGED_IGNORABLE.has(issue.path) && !plan) return null;
  return `'${issue.path}' is a Claude Code setting deepcode does not apply, and ignoring it would leave the policy less strict than written`;
}

/**
 * Hook events a managed file may name: deepcode's (mods/hooks/config.ts HOOK_EVENTS; a test
 * keeps it inside this list) and Claude Code's others, which deepcode does not run — none of
 * them is a gate deepcode would then leave open (its PreToolUse is the gate, and a permission
 * prompt deepcode shows is answered by a person or, with nobody there, denied). A name on
 * neither list is a typo (`PreTooluse`): the administrator's hook would silently never run.
 */
export const KNOWN_HOOK_EVENTS: ReadonlySet<string> = new Set([
  "PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SessionStart", "SessionEnd", "PreCompact", "Notification",
  "PostToolUseFailure", "PostToolBatch", "PermissionRequest", "PermissionDenied", "UserPromptExpansion", "StopFailure",
  "SubagentStart", "SubagentStop", "PostCompact", "Elicitation", "ElicitationResult", "TeammateIdle", "TaskCreated",
  "TaskCompleted", "Setup", "InstructionsLoaded", "CwdChanged", "FileChanged", "ConfigChange", "WorktreeCreate",
  "WorktreeRemove", "PreModelSwitch", "PostModelSwitch", "MessageDisplay", "DirectoryAdded",
]);

function valueAt(obj: Settings, path: string): JsonValue {
  let cur: JsonValue = obj;
  for (const p of path.split(".")) cur = isObject(cur) ? cur[p] : null;
  return cur ?? null;
}

/** The first hook event a file names that neither deepcode nor Claude Code knows, or null. */
export function unknownHookEvent(settings: Settings): string | null {
  if (!isObject(settings.hooks)) return null;
  return Object.keys(settings.hooks).find((e) => !KNOWN_HOOK_EVENTS.has(e)) ?? null;
}
