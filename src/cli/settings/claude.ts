// Claude Code's own settings files, read as the layers they are in Claude Code:
//   ~/.claude/settings.json        user     (before ~/.deepcode/settings.json)
//   .claude/settings.json          project  (before .deepcode/settings.json)
//   .claude/settings.local.json    local    (before .deepcode/settings.local.json)
// Each sits just below deepcode's own file of the same scope, so where both set a key,
// deepcode's wins; rule lists and hooks accumulate as for every layer. They carry the layer
// names of their scope, so workspace trust cuts a project's (and local's) down to what
// tightens exactly as it does `.deepcode/`'s.
//
// Contracts (they are Claude Code's files, written for another program):
// - Only what means the same here is taken: permissions (allow, ask, deny,
//   additionalDirectories, defaultMode), hooks, outputStyle, statusLine, enabledPlugins,
//   extraKnownMarketplaces and the `.mcp.json` approval keys. Every other key — `model` (a
//   Claude model name that must never reach the DeepSeek API), `env` (variables for Claude Code
//   itself), `apiKeyHelper`, `sandbox` (whose defaults differ) — is left out without a word.
// - A file that does not parse is named with its line and column and left out; a key of the
//   wrong type is named and left out; nothing else is lost and deepcode still starts.
// - `defaultMode: "acceptEdits"` becomes the allow rules `--permission-mode acceptEdits` gives
//   (placed at the defaultMode line, so `deepcode permissions` names it); "plan" and
//   "bypassPermissions" are said and not applied (deepcode has no bypass; plan mode is a flag).

import { homedir } from "node:os";
import { join } from "node:path";
import type { JsonValue } from "../../contract/index.js";
import { isObject } from "../../lib/json.js";
import type { JsonPosition } from "../../lib/json-parse.js";
import type { Settings, SettingsLayerName } from "./types.js";

/** The keys of a Claude Code settings file deepcode applies. */
const APPLIED = new Set(["permissions", "hooks", "outputStyle", "statusLine", "enabledPlugins", "extraKnownMarketplaces", "enableAllProjectMcpServers", "enabledMcpjsonServers", "disabledMcpjsonServers"]);
const APPLIED_PERMISSIONS = new Set(["allow", "ask", "deny", "additionalDirectories"]);

/** The allow rules `defaultMode: "acceptEdits"` stands for (as `--permission-mode acceptEdits`). */
export const ACCEPT_EDITS_RULES = ["Edit(/**)", "Write(/**)"];

/** Claude Code's settings file of each scope; the caller places each right before deepcode's. */
export function claudeSettingsFiles(root: string, userHome: string = homedir()): Record<"user" | "project" | "local", string> {
  return {
    user: join(userHome, ".claude", "settings.json"),
    project: join(root, ".claude", "settings.json"),
    local: join(root, ".claude", "settings.local.json"),
  };
}

export type ClaudeScope = Extract<SettingsLayerName, "user" | "project" | "local">;

/**
 * Keep what deepcode applies from a parsed Claude Code settings object (in place of the parsed
 * value), turning `defaultMode` into rules. `positions` gets an entry for each rule it adds (at
 * the defaultMode key), so messages name the line that asked for it.
 */
export function claudeApplied(value: { [k: string]: JsonValue }, file: string, positions: Map<string, JsonPosition>, warnings: string[]): Settings {
  const out: Settings = {};
  for (const [k, v] of Object.entries(value)) {
    if (!APPLIED.has(k)) continue;
    if (k === "hooks" && value.disableAllHooks === true) continue; // Claude Code's switch for this file's hooks
    if (k !== "permissions" || !isObject(v)) {
      out[k] = v;
      continue;
    }
    const perms: { [k: string]: JsonValue } = {};
    for (const [pk, pv] of Object.entries(v)) if (APPLIED_PERMISSIONS.has(pk)) perms[pk] = pv;
    const mode = v.defaultMode;
    const at = positions.get("permissions.defaultMode");
    const where = at ? `${file}:${at.line}:${at.column}` : file;
    if (mode === "acceptEdits") {
      const allow = Array.isArray(perms.allow) ? [...perms.allow] : [];
      for (const rule of ACCEPT_EDITS_RULES) {
        if (at) positions.set(`permissions.allow[${allow.length}]`, at);
        allow.push(rule);
      }
      perms.allow = allow;
    } else if (mode === "plan") {
      warnings.push(`${where}: permissions.defaultMode "plan" is not applied from a settings file; start a planning run with --permission-mode plan (or /plan in the REPL)`);
    } else if (mode === "bypassPermissions") {
      warnings.push(`${where}: permissions.defaultMode "bypassPermissions" is ignored: deepcode has no bypass of its permission rules`);
    } else if (mode !== undefined && mode !== "default") {
      warnings.push(`${where}: permissions.defaultMode ${JSON.stringify(mode)} is not a mode deepcode applies (ignored)`);
    }
    out.permissions = perms;
  }
  return out;
}
