// A plugin's variables, as Claude Code expands them in its files: `${CLAUDE_PLUGIN_ROOT}` (the
// installed folder) and `${CLAUDE_PLUGIN_DATA}` (its own writable folder under deepcode's home,
// `plugins/data/<plugin>@<marketplace>/`, kept across updates), with deepcode's names for both.
// The data folder is created (0700) the first time something of the plugin uses it — a hook
// command, an MCP server's configuration, a command's body — so a server that writes there on
// its first call finds it.

import { mkdirSync } from "node:fs";

export type PluginVars = Readonly<Record<string, string>>;

const VAR = /\$\{(CLAUDE_PLUGIN_ROOT|DEEPCODE_PLUGIN_ROOT|CLAUDE_PLUGIN_DATA|DEEPCODE_PLUGIN_DATA)\}/g;

export function pluginVars(root: string, data: string): Record<string, string> {
  return { CLAUDE_PLUGIN_ROOT: root, DEEPCODE_PLUGIN_ROOT: root, CLAUDE_PLUGIN_DATA: data, DEEPCODE_PLUGIN_DATA: data };
}

/** Whether `text` names the plugin's data folder. */
export function usesData(text: string): boolean {
  return /\$\{(CLAUDE|DEEPCODE)_PLUGIN_DATA\}/.test(text);
}

/** `text` with the plugin's variables expanded (other `${…}` are left as written). */
export function expandVars(text: string, vars: PluginVars): string {
  return text.replace(VAR, (_m, name: string) => vars[name]);
}

/** Create the plugin's data folder (idempotent). A failure is the caller's to report. */
export function ensureDataDir(vars: PluginVars): void {
  mkdirSync(vars.CLAUDE_PLUGIN_DATA, { recursive: true, mode: 0o700 });
}
