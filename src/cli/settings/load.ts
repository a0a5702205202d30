// The five settings layers, read and merged: user → project → local → flag → managed.
//
// Claude Code's own files (~/.claude/settings.json, .claude/settings.json,
// .claude/settings.local.json) are read too, each right below deepcode's file of the same scope
// and tolerantly: see claude.ts.
//
// Contracts:
// - A malformed file of deepcode's own in the first four layers is a ConfigError naming the file, line and column:
//   deepcode refuses to start rather than run with half a configuration.
// - A malformed managed file is not an exception: the managed state says "broken" and the
//   permission decision becomes deny-all, loudly (a warning names the file). An administrator's
//   typo must not silently lift the policy, and must not stop people from seeing why.
// - The managed path is only a parameter here. Nothing a user sets (environment, flag, project
//   file) moves or switches off the managed layer; the CLI passes defaultManagedPath().

import { lstatSync, readdirSync, readlinkSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { ConfigError } from "../../contract/errors.js";
import { NotRegularFileError, readRegularFileSync } from "../../lib/regular-file.js";
import type { JsonValue } from "../../contract/index.js";
import { JsonSyntaxError, parseJson, type JsonPosition } from "../../lib/json-parse.js";
import { checkSettings } from "./schema.js";
import { claudeApplied, claudeSettingsFiles } from "./claude.js";
import { isObject } from "../../lib/json.js";
import { denyReadRules } from "./deny-read.js";
import { decodeUtf8 } from "./utf8.js";
import { strictProblem, unknownHookEvent } from "./strict.js";
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
  /** The person's home folder, where `~/.claude/settings.json` lives (default os.homedir()). */
  userHome?: string;
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
/** Keys only an administrator's policy may set; elsewhere they are dropped with a warning. */
const MANAGED_ONLY = [
  "allowManagedHooksOnly", "allowManagedPermissionRulesOnly", "allowManagedMcpServersOnly", "allowManagedPluginsOnly", "allowedPlugins",
  "availableModels", "strictKnownMarketplaces", "blockedMarketplaces",
] as const;

export function loadSettings(opts: LoadSettingsOptions): LoadedSettings {
  const warnings: string[] = [];
  const seen = new Set<string>(); // unknown-key warnings are said once per key, whatever the layer
  const claude = claudeSettingsFiles(opts.root, opts.userHome);
  // Claude Code's file of a scope comes first: deepcode's own of the same scope wins a key both set.
  const sources: Array<{ name: SettingsLayerName; file: string; required: boolean; claude?: boolean }> = [
    { name: "user", file: claude.user, required: false, claude: true },
    { name: "user", file: join(opts.home, "settings.json"), required: false },
    { name: "project", file: claude.project, required: false, claude: true },
    { name: "project", file: join(opts.root, ".deepcode", "settings.json"), required: false },
    { name: "local", file: claude.local, required: false, claude: true },
    { name: "local", file: join(opts.root, ".deepcode", "settings.local.json"), required: false },
  ];
  if (opts.flagFile !== undefined) sources.push({ name: "flag", file: opts.flagFile, required: true });

  const layers: SettingsLayer[] = [];
  for (const s of sources) {
    const r = s.claude ? readClaudeFile(s.file, warnings, seen) : readSettingsFile(s.file, s.required, warnings, seen); // throws ConfigError (deepcode's own)
    if (s.claude && !r.present) continue; // a Claude Code file that is not there is no layer at all
    for (const key of MANAGED_ONLY) {
      if (r.settings[key] === undefined) continue;
      warnings.push(`${s.file}: '${key}' is only honoured in the managed policy (ignored here)`);
      delete r.settings[key];
    }
    layers.push({ name: s.name, file: s.file, settings: r.settings, present: r.present, positions: r.positions });
  }

  for (const f of opts.flagRules ?? []) {
    const permissions: Settings = {};
    if (f.allow?.length) permissions.allow = f.allow;
    if (f.deny?.length) permissions.deny = f.deny;
    layers.push({ name: "flag", file: f.source, settings: { permissions }, present: true });
  }

  const managed = loadManaged(opts.managedPath, warnings, seen);
  for (const m of managed.layers) layers.push({ ...m.layer, positions: m.read.positions });

  const { merged, rules } = mergeLayers(layers);
  return { layers, merged, rules, warnings, managed: managed.state };
}

/** The same settings with some layers' contents replaced (workspace trust keeps only what an
 *  untrusted project's files may set), merged again. */
export function withLayers(loaded: LoadedSettings, layers: SettingsLayer[]): LoadedSettings {
  const { merged, rules } = mergeLayers(layers);
  return { ...loaded, layers, merged, rules };
}

/** The file of the highest layer that sets `key` (what a message about that key names). */
export { settingFile } from "../../lib/setting-file.js";

/**
 * The managed layer fails closed: anything at the managed path or in its drop-in folder that
 * deepcode cannot read and apply exactly as written makes the policy broken (deny-all, loudly) —
 * an empty file, a dangling symlink, something that is not a regular file, an unreadable file,
 * a drop-in whose name deepcode would not read (`30-deny.JSON`, a dotfile, a folder, `notes.txt`),
 * an unknown key (`permisions`), a key given twice, and a Claude Code key deepcode does not apply
 * unless ignoring it can only leave deepcode stricter than written (strict.ts). Only
 * "nothing there at all" is no policy.
 */
function loadManaged(
  path: string,
  warnings: string[],
  seen: Set<string>,
): { state: ManagedState; layers: Array<{ layer: SettingsLayer; read: ReadFile }> } {
  const dropInDir = join(dirname(path), "managed-settings.d");
  const state: ManagedState = { path, dropInDir, state: "absent", files: [] };
  const out: Array<{ layer: SettingsLayer; read: ReadFile }> = [];
  const files: string[] = [];
  const main = managedEntry(path, "file");
  if (main === "file") files.push(path);
  else if (main !== "absent") return broken(state, main, warnings, out);
  const dir = managedEntry(dropInDir, "folder");
  if (dir !== "absent" && dir !== "folder") return broken(state, dir, warnings, out);
  if (dir === "folder") {
    let names: string[];
    try {
      names = readdirSync(dropInDir).sort();
    } catch (err) {
      return broken(state, `${dropInDir}: cannot read the drop-in folder (${code(err) ?? String(err)})`, warnings, out);
    }
    for (const n of names) {
      const file = join(dropInDir, n);
      if (!n.endsWith(".json") || n.startsWith(".")) {
        return broken(state, `${file}: deepcode reads only drop-in files named *.json (not starting with '.'), so this one would be skipped; rename or remove it`, warnings, out);
      }
      const kind = managedEntry(file, "file");
      if (kind !== "file") return broken(state, kind === "absent" ? `${file}: vanished while it was read` : kind, warnings, out);
      files.push(file);
    }
  }
  for (const file of files) {
    let r: ReadFile;
    try {
      r = readSettingsFile(file, true, warnings, seen, { strict: true });
    } catch (err) {
      return broken(state, err instanceof Error ? err.message : String(err), warnings, out);
    }
    state.files.push(file);
    state.state = "ok";
    out.push({ layer: { name: "managed", file, settings: r.settings, present: true }, read: r });
  }
  return { state, layers: out };
}

/** What is at a managed path: nothing ("absent"), what is expected there ("file": a regular
 *  file, "folder"), or a problem to report (a dangling symlink, something else, unreadable). */
function managedEntry(path: string, want: "file" | "folder"): "absent" | "file" | "folder" | string {
  try {
    lstatSync(path);
  } catch (err) {
    if (code(err) === "ENOENT") return "absent";
    return `${path}: cannot be looked at (${code(err) ?? String(err)})`;
  }
  let st;
  try {
    st = statSync(path);
  } catch (err) {
    return `${path}: is a symlink that leads nowhere (${code(err) ?? String(err)})`;
  }
  if (want === "file" && st.isFile()) return "file";
  if (want === "folder" && st.isDirectory()) return "folder";
  return `${path}: is ${st.isDirectory() ? "a folder" : "not a regular file"}, where a managed ${want === "file" ? "settings file" : "drop-in folder"} was expected`;
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

/** A Claude Code settings file: a problem in it is said (file, line, column) and the file is
 *  left out; it never stops deepcode from starting (it was written for another program). */
function readClaudeFile(file: string, warnings: string[], seen: Set<string>): ReadFile {
  try {
    return readSettingsFile(file, false, warnings, seen, { claude: true });
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    warnings.push(`${err.message} (Claude Code's settings file: left out; everything else loads)`);
    return { settings: {}, present: false, positions: new Map() };
  }
}

/** Read one settings file. Absent → `{ present: false }` (or a ConfigError when required).
 *  `strict` (the managed layer): an empty file, a key given twice, an unknown key and a Claude
 *  Code key deepcode does not apply (unless harmless: strict.ts) are ConfigErrors too. */
export function readSettingsFile(file: string, required: boolean, warnings: string[], seen: Set<string>, o: { strict?: boolean; claude?: boolean } = {}): ReadFile {
  let bytes: Buffer;
  try {
    // Non-blocking open, checked on the descriptor: a FIFO here would hang start-up.
    bytes = readRegularFileSync(file).data;
  } catch (err) {
    const c = code(err);
    if (c === "ENOENT") {
      const target = danglingTarget(file);
      if (target !== undefined) throw new ConfigError(`is a symlink to ${target}, which does not exist: fix or remove the link`, file);
    }
    if ((c === "ENOENT" || c === "ENOTDIR") && !required) return { settings: {}, present: false, positions: new Map() };
    if (c === "ENOENT") throw new ConfigError("settings file not found", file);
    if (c === "EISDIR") throw new ConfigError("is a folder, not a settings file", file);
    if (err instanceof NotRegularFileError) throw new ConfigError(`is ${err.kind}, not a settings file: deepcode reads settings from regular files only`, file);
    throw new ConfigError(`cannot read the settings file (${c ?? String(err)})`, file);
  }
  const text = decodeUtf8(bytes, file);
  if (text.trim() === "" || text.trim() === "\ufeff") {
    if (o.strict) throw new ConfigError("is empty: a managed policy file must hold a JSON object (write {} for no rules)", file);
    return { settings: {}, present: true, positions: new Map() };
  }
  let parsed;
  try {
    parsed = parseJson(text);
  } catch (err) {
    if (err instanceof JsonSyntaxError) throw new ConfigError(err.message, file, err.line, err.column);
    throw err;
  }
  const at = (path: string): JsonPosition | undefined => parsed.positions.get(path);
  if (!isObject(parsed.value)) throw new ConfigError("settings must be a JSON object ({ ... })", file, 1, 1);
  if (o.strict && parsed.duplicates.length > 0) {
    const d = parsed.duplicates[0];
    throw new ConfigError(`'${d}' appears twice: deepcode cannot tell which one the policy means`, file, at(d)?.line, at(d)?.column);
  }
  for (const d of parsed.duplicates) warnings.push(`${where(file, at(d))}: '${d}' appears twice (the later one is used)`);

  // Claude Code's file: only the keys deepcode applies; the rest is Claude Code's own, quietly.
  if (o.claude) parsed.value = claudeApplied(parsed.value, file, parsed.positions, warnings);
  const issues = checkSettings(parsed.value);
  const typeErrors = issues.filter((i) => i.kind === "type");
  if (typeErrors.length > 0 && !o.claude) {
    const first = typeErrors[0];
    const pos = at(first.path);
    const more = typeErrors.length > 1 ? ` (and ${typeErrors.length - 1} more type error${typeErrors.length > 2 ? "s" : ""})` : "";
    throw new ConfigError(`${first.message}${more}`, file, pos?.line, pos?.column);
  }
  const settings = parsed.value;
  for (const issue of o.strict ? issues : []) {
    const problem = strictProblem(issue, settings);
    if (problem) throw new ConfigError(problem, file, at(issue.path)?.line, at(issue.path)?.column);
  }
  const typo = o.strict ? unknownHookEvent(settings) : null;
  if (typo !== null) throw new ConfigError(`'hooks.${typo}' is not a hook event deepcode or Claude Code knows: the hook would never run`, file, at(`hooks.${typo}`)?.line, at(`hooks.${typo}`)?.column);
  for (const issue of issues) {
    const key = `${issue.kind}:${issue.path}`;
    if (o.claude && issue.kind === "type") warnings.push(`${where(file, at(issue.path))}: ${issue.message} (left out; the rest of this Claude Code file applies)`);
    else if (!o.claude && !seen.has(key)) {
      seen.add(key);
      warnings.push(`${where(file, at(issue.path))}: ${issue.message}`);
    }
    removePath(settings, issue.path);
  }
  return { settings, present: true, positions: parsed.positions };
}

function mergeLayers(layers: SettingsLayer[]): { merged: Settings; rules: RuleSource[] } {
  const merged: Settings = {};
  const rules: RuleSource[] = [];
  const lists: Record<RuleKind | "additionalDirectories", string[]> = { allow: [], ask: [], deny: [], additionalDirectories: [] };
  const hooks: { [event: string]: JsonValue[] } = {};
  const managedHooksOnly = layers.some((l) => l.name === "managed" && l.settings.allowManagedHooksOnly === true);
  // allowManagedPermissionRulesOnly: only the policy's allow and ask rules count; every layer's
  // deny still does (ignoring one could only loosen what the person asked for).
  const managedRulesOnly = layers.some((l) => l.name === "managed" && l.settings.allowManagedPermissionRulesOnly === true);

  layers.forEach((layer) => {
    // `sandbox.filesystem.denyRead` (Claude Code's key) is a read deny of this layer, as
    // `Read(path)` in permissions.deny: one route from a denied path to the gate and the sandbox.
    denyReadRules(layer.settings).forEach((text, i) => {
      if (text === "") return; // not a path: the schema has said so
      const pos = layer.positions?.get(`sandbox.filesystem.denyRead[${i}]`);
      rules.push({ kind: "deny", text, layer: layer.name, file: layer.file, line: pos?.line, column: pos?.column });
    });
    for (const [key, value] of Object.entries(layer.settings)) {
      if (key === "permissions" && isObject(value)) {
        const perms = isObject(merged.permissions) ? merged.permissions : {};
        for (const [pk, pv] of Object.entries(value)) {
          if ((RULE_KINDS as string[]).includes(pk) && Array.isArray(pv)) {
            pv.forEach((text, i) => {
              if (typeof text !== "string") return;
              if (managedRulesOnly && pk !== "deny" && layer.name !== "managed") return;
              const pos = layer.positions?.get(`permissions.${pk}[${i}]`);
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

/** Where a dangling symlink at `file` points, or undefined when `file` is not one. */
function danglingTarget(file: string): string | undefined {
  try {
    return lstatSync(file).isSymbolicLink() ? readlinkSync(file) : undefined;
  } catch {
    return undefined; // nothing at all there (ENOENT, ENOTDIR): an absent file, not a bad link
  }
}

function code(err: unknown): string | undefined {
  return typeof err === "object" && err !== null ? (err as { code?: string }).code : undefined;
}
