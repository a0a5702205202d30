// The five settings layers, read and merged: user → project → local → flag → managed.
//
// Contracts:
// - A malformed file in the first four layers is a ConfigError naming the file, line and column:
//   deepcode refuses to start rather than run with half a configuration.
// - A malformed managed file is not an exception: the managed state says "broken" and the
//   permission decision becomes deny-all, loudly (a warning names the file). An administrator's
//   typo must not silently lift the policy, and must not stop people from seeing why.
// - The managed path is only a parameter here. Nothing a user sets (environment, flag, project
//   file) moves or switches off the managed layer; the CLI passes defaultManagedPath().

import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { ConfigError } from "../../contract/index.js";
import type { JsonValue } from "../../contract/index.js";
import { JsonSyntaxError, parseJson, type JsonPosition } from "./json.js";
import { checkSettings, isObject } from "./schema.js";
import type { LoadedSettings, ManagedState, RuleKind, RuleSource, Settings, SettingsLayer, SettingsLayerName } from "./types.js";

export interface LoadSettingsOptions {
  /** The workspace root (project layers live in `<root>/.deepcode/`). */
  root: string;
  /** deepcode's home folder (DEEPCODE_HOME or ~/.deepcode), resolved by the caller. */
  home: string;
  /** `--settings FILE`: must exist when given. */
  flagFile?: string;
  /** The managed policy file; the caller injects it (defaultManagedPath() in the CLI). */
  managedPath: string;
  /** Rules given on the command line for this run (`--allowedTools`, `--disallowedTools`,
   *  `--permission-mode acceptEdits`): flag-layer rules, each group named by the flag that gave
   *  it (shown as the rule's file by `deepcode permissions`). */
  flagRules?: Array<{ source: string; allow?: string[]; deny?: string[] }>;
}

/** Where an administrator puts the managed policy, per OS. Hard-coded on purpose: no
 *  environment variable (not even %ProgramData%) can move it. */
export function defaultManagedPath(platform: NodeJS.Platform = process.platform): string {
  if (platform === "darwin") return "/Library/Application Support/deepcode/managed-settings.json";
  if (platform === "win32") return "C:\\ProgramData\\deepcode\\managed-settings.json";
  return "/etc/deepcode/managed-settings.json";
}

interface ReadFile {
  settings: Settings;
  present: boolean;
  positions: Map<string, JsonPosition>;
}

const RULE_KINDS: RuleKind[] = ["allow", "ask", "deny"];

export function loadSettings(opts: LoadSettingsOptions): LoadedSettings {
  const warnings: string[] = [];
  const seen = new Set<string>(); // unknown-key warnings are said once per key, whatever the layer
  const sources: Array<{ name: SettingsLayerName; file: string; required: boolean }> = [
    { name: "user", file: join(opts.home, "settings.json"), required: false },
    { name: "project", file: join(opts.root, ".deepcode", "settings.json"), required: false },
    { name: "local", file: join(opts.root, ".deepcode", "settings.local.json"), required: false },
  ];
  if (opts.flagFile !== undefined) sources.push({ name: "flag", file: opts.flagFile, required: true });

  const layers: SettingsLayer[] = [];
  const read: ReadFile[] = [];
  for (const s of sources) {
    const r = readSettingsFile(s.file, s.required, warnings, seen); // throws ConfigError
    if (r.settings.allowManagedHooksOnly !== undefined) {
      warnings.push(`${s.file}: 'allowManagedHooksOnly' is only honoured in the managed policy (ignored here)`);
      delete r.settings.allowManagedHooksOnly;
    }
    layers.push({ name: s.name, file: s.file, settings: r.settings, present: r.present });
    read.push(r);
  }

  for (const f of opts.flagRules ?? []) {
    const permissions: Settings = {};
    if (f.allow?.length) permissions.allow = f.allow;
    if (f.deny?.length) permissions.deny = f.deny;
    layers.push({ name: "flag", file: f.source, settings: { permissions }, present: true });
    read.push({ settings: { permissions }, present: true, positions: new Map() });
  }

  const managed = loadManaged(opts.managedPath, warnings, seen);
  for (const m of managed.layers) {
    layers.push(m.layer);
    read.push(m.read);
  }

  const { merged, rules } = merge(layers, read);
  return { layers, merged, rules, warnings, managed: managed.state };
}

function loadManaged(
  path: string,
  warnings: string[],
  seen: Set<string>,
): { state: ManagedState; layers: Array<{ layer: SettingsLayer; read: ReadFile }> } {
  const dropInDir = join(dirname(path), "managed-settings.d");
  const state: ManagedState = { path, dropInDir, state: "absent", files: [] };
  const out: Array<{ layer: SettingsLayer; read: ReadFile }> = [];
  const files = [path];
  try {
    const names = readdirSync(dropInDir)
      .filter((n) => n.endsWith(".json") && !n.startsWith("."))
      .sort();
    files.push(...names.map((n) => join(dropInDir, n)));
  } catch (err) {
    if (code(err) !== "ENOENT" && code(err) !== "ENOTDIR") return broken(state, `${dropInDir}: cannot read the drop-in folder (${code(err) ?? String(err)})`, warnings, out);
  }
  for (const file of files) {
    let r: ReadFile;
    try {
      r = readSettingsFile(file, false, warnings, seen);
    } catch (err) {
      return broken(state, err instanceof Error ? err.message : String(err), warnings, out);
    }
    if (!r.present) continue;
    state.files.push(file);
    state.state = "ok";
    out.push({ layer: { name: "managed", file, settings: r.settings, present: true }, read: r });
  }
  return { state, layers: out };
}

function broken(
  state: ManagedState,
  problem: string,
  warnings: string[],
  layers: Array<{ layer: SettingsLayer; read: ReadFile }>,
): { state: ManagedState; layers: Array<{ layer: SettingsLayer; read: ReadFile }> } {
  state.state = "broken";
  state.problem = problem;
  warnings.push(`MANAGED POLICY IS BROKEN: ${problem} — every tool call is denied until an administrator fixes it`);
  // Nothing from a broken policy is applied, not even the files that parsed: half a policy
  // could be looser than the whole one. The decision is deny-all anyway.
  for (const l of layers) l.layer.settings = {};
  return { state, layers: layers.map((l) => ({ layer: l.layer, read: { ...l.read, settings: {} } })) };
}

/** Read one settings file. Absent → `{ present: false }` (or a ConfigError when required). */
export function readSettingsFile(file: string, required: boolean, warnings: string[], seen: Set<string>): ReadFile {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    const c = code(err);
    if ((c === "ENOENT" || c === "ENOTDIR") && !required) return { settings: {}, present: false, positions: new Map() };
    if (c === "ENOENT") throw new ConfigError("settings file not found", file);
    if (c === "EISDIR") throw new ConfigError("is a folder, not a settings file", file);
    throw new ConfigError(`cannot read the settings file (${c ?? String(err)})`, file);
  }
  if (text.trim() === "" || text.trim() === "\ufeff") return { settings: {}, present: true, positions: new Map() };
  let parsed;
  try {
    parsed = parseJson(text);
  } catch (err) {
    if (err instanceof JsonSyntaxError) throw new ConfigError(err.message, file, err.line, err.column);
    throw err;
  }
  const at = (path: string): JsonPosition | undefined => parsed.positions.get(path);
  if (!isObject(parsed.value)) throw new ConfigError("settings must be a JSON object ({ ... })", file, 1, 1);
  for (const d of parsed.duplicates) warnings.push(`${where(file, at(d))}: '${d}' appears twice (the later one is used)`);

  const issues = checkSettings(parsed.value);
  const typeErrors = issues.filter((i) => i.kind === "type");
  if (typeErrors.length > 0) {
    const first = typeErrors[0];
    const pos = at(first.path);
    const more = typeErrors.length > 1 ? ` (and ${typeErrors.length - 1} more type error${typeErrors.length > 2 ? "s" : ""})` : "";
    throw new ConfigError(`${first.message}${more}`, file, pos?.line, pos?.column);
  }
  const settings = parsed.value;
  for (const issue of issues) {
    const key = `${issue.kind}:${issue.path}`;
    if (!seen.has(key)) {
      seen.add(key);
      warnings.push(`${where(file, at(issue.path))}: ${issue.message}`);
    }
    removePath(settings, issue.path);
  }
  return { settings, present: true, positions: parsed.positions };
}

function merge(layers: SettingsLayer[], read: ReadFile[]): { merged: Settings; rules: RuleSource[] } {
  const merged: Settings = {};
  const rules: RuleSource[] = [];
  const lists: Record<RuleKind | "additionalDirectories", string[]> = { allow: [], ask: [], deny: [], additionalDirectories: [] };
  const hooks: { [event: string]: JsonValue[] } = {};
  const managedHooksOnly = layers.some((l) => l.name === "managed" && l.settings.allowManagedHooksOnly === true);

  layers.forEach((layer, index) => {
    for (const [key, value] of Object.entries(layer.settings)) {
      if (key === "permissions" && isObject(value)) {
        const perms = isObject(merged.permissions) ? merged.permissions : {};
        for (const [pk, pv] of Object.entries(value)) {
          if ((RULE_KINDS as string[]).includes(pk) && Array.isArray(pv)) {
            pv.forEach((text, i) => {
              if (typeof text !== "string") return;
              const pos = read[index].positions.get(`permissions.${pk}[${i}]`);
              rules.push({ kind: pk as RuleKind, text, layer: layer.name, file: layer.file, line: pos?.line, column: pos?.column });
              lists[pk as RuleKind].push(text);
            });
          } else if (pk === "additionalDirectories" && Array.isArray(pv)) {
            for (const d of pv) if (typeof d === "string") lists.additionalDirectories.push(d);
          } else {
            perms[pk] = pv;
          }
        }
        merged.permissions = perms;
      } else if (key === "hooks" && isObject(value)) {
        // Hooks accumulate like Claude Code's: every layer's hooks run (unless the managed policy
        // says only its own may). The hooks mod reads `layers` to know which came from where.
        if (managedHooksOnly && layer.name !== "managed") continue;
        for (const [event, list] of Object.entries(value)) if (Array.isArray(list)) (hooks[event] ??= []).push(...list);
      } else if (isObject(value) && isObject(merged[key])) {
        merged[key] = { ...merged[key], ...value };
      } else {
        merged[key] = value;
      }
    }
  });
  if (rules.length > 0 || lists.additionalDirectories.length > 0 || merged.permissions !== undefined) {
    merged.permissions = { ...(isObject(merged.permissions) ? merged.permissions : {}), ...lists };
  }
  if (Object.keys(hooks).length > 0) merged.hooks = hooks;
  return { merged, rules };
}

function removePath(obj: Settings, path: string): void {
  const parts = path.split(".");
  let cur: JsonValue = obj;
  for (let i = 0; i < parts.length - 1; i++) {
    if (!isObject(cur)) return;
    cur = cur[parts[i]];
  }
  if (isObject(cur)) delete cur[parts[parts.length - 1]];
}

function where(file: string, pos: JsonPosition | undefined): string {
  return pos ? `${file}:${pos.line}:${pos.column}` : file;
}

function code(err: unknown): string | undefined {
  return typeof err === "object" && err !== null ? (err as { code?: string }).code : undefined;
}
