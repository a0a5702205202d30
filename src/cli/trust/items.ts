// Everything a project ships that would loosen a rule or run code once trusted, gathered in
// one list (what the person is shown, and what the trust digest covers): its settings files'
// loosening keys, custom commands with `allowed-tools` or !`cmd` lines, skills with
// `allowed-tools`, and `.mcp.json` servers. A contributor is one function; new kinds of project
// content add one here.

import { createHash } from "node:crypto";
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import type { JsonValue } from "../../contract/index.js";
import { parseSkillFile } from "../../lib/claude-files.js";
import { bangCommands, loadCustomCommands } from "../commands/custom.js";
import type { LoadedSettings, SettingsLayer } from "../settings/types.js";
import { classifySettings, type TrustedView, type TrustItem } from "./classify.js";
import { readOwnFile } from "../../lib/own-file.js";
import { canonicalJson, isObject } from "../../lib/json.js";

export type { TrustItem };

/** Project-owned settings layers: their files come with the repository. */
export const PROJECT_LAYERS: ReadonlySet<string> = new Set(["project", "local"]);

/** What the trusted layers (user, flag) say that project settings are compared with. */
export function trustedView(settings: LoadedSettings): TrustedView {
  const view: TrustedView = {};
  for (const layer of settings.layers) {
    if (PROJECT_LAYERS.has(layer.name) || layer.name === "managed") continue;
    const b = layer.settings.budget;
    if (isObject(b)) {
      view.budget ??= {};
      if (typeof b.daily === "number") view.budget.daily = b.daily;
      if (typeof b.monthly === "number") view.budget.monthly = b.monthly;
    }
  }
  return view;
}

/** The project layers cut down to what applies untrusted, and what was cut. */
export function untrustedLayers(settings: LoadedSettings): { layers: SettingsLayer[]; items: TrustItem[] } {
  const ref = trustedView(settings);
  const items: TrustItem[] = [];
  const layers = settings.layers.map((layer) => {
    if (!PROJECT_LAYERS.has(layer.name) || !layer.present) return layer;
    const c = classifySettings(layer.settings, layer.file, ref);
    items.push(...c.items);
    return { ...layer, settings: c.kept };
  });
  return { layers, items };
}

export interface ProjectContent {
  root: string;
  home: string;
  userHome?: string;
  settings: LoadedSettings;
}

/** Every item of the project that needs trust, in a stable order. */
export function trustItems(p: ProjectContent): TrustItem[] {
  return [...untrustedLayers(p.settings).items, ...commandItems(p), ...skillItems(p.root), ...mcpItems(p.root)];
}

/** The digest a trust decision is remembered with: it changes when anything that would take
 *  effect changes (a new allow rule, an edited hook command, another server). */
export function trustDigest(root: string, items: readonly TrustItem[]): string {
  const canon = items.map((i) => [relative(root, i.file), i.key, canonicalJson(i.value)]).sort((a, b) => (a.join("\u0000") < b.join("\u0000") ? -1 : 1));
  return createHash("sha256").update(JSON.stringify(canon)).digest("hex");
}

function commandItems(p: ProjectContent): TrustItem[] {
  const { commands } = loadCustomCommands({ root: p.root, home: p.home, userHome: p.userHome });
  const out: TrustItem[] = [];
  for (const c of commands) {
    if (c.scope !== "project") continue;
    if (c.allowedTools?.length) out.push({ file: c.file, key: `command /${c.name} allowed-tools`, what: `/${c.name} allows ${c.allowedTools.join(", ")} while it runs`, value: c.allowedTools });
    const bangs = bangCommands(c.body);
    if (bangs.length) out.push({ file: c.file, key: `command /${c.name} !cmd`, what: `/${c.name} runs ${bangs.map((b) => `\`${b}\``).join(", ")}`, value: bangs });
  }
  return out;
}

/** The project's skills (mods/skills reads the same files) whose `allowed-tools` would let
 *  calls run without asking while the skill is in use. */
function skillItems(root: string): TrustItem[] {
  const out: TrustItem[] = [];
  for (const folder of [join(root, ".deepcode", "skills"), join(root, ".claude", "skills")]) {
    let names: string[];
    try {
      names = readdirSync(folder).filter((n) => !n.startsWith(".")).sort();
    } catch {
      continue; // no skills folder
    }
    for (const name of names) {
      const file = join(folder, name, "SKILL.md");
      // As the skills mod reads it (a link out of the project, a FIFO, a huge file: no skill).
      const r = readOwnFile(file, { within: [root], maxBytes: 1024 * 1024 });
      if (!r.ok || r.truncated) continue; // not a skill folder, or a file the skills mod skips too
      const parsed = parseSkillFile(r.text, name);
      if (!parsed.ok || parsed.value.allowedTools.length === 0) continue; // a skill that does not load grants nothing
      const tools = parsed.value.allowedTools;
      out.push({ file, key: `skill ${parsed.value.name} allowed-tools`, what: `the skill ${parsed.value.name} allows ${tools.join(", ")} while it is in use`, value: tools });
    }
  }
  return out;
}

function mcpItems(root: string): TrustItem[] {
  const file = join(root, ".mcp.json");
  // Not followed out of the project, never a FIFO (the question must not hang), bounded.
  const r = readOwnFile(file, { within: [root], maxBytes: 4 * 1024 * 1024 });
  if (!r.ok) return []; // no .mcp.json (or unreadable: the MCP client reports what it cannot read)
  const text = r.text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [{ file, key: ".mcp.json", what: "start MCP servers from .mcp.json (the file does not parse)", value: text }];
  }
  const servers = isObject(parsed) && isObject(parsed.mcpServers) ? parsed.mcpServers : {};
  return Object.entries(servers).map(([name, cfg]) => ({ file, key: `mcpServers.${name}`, what: `start MCP server ${name}: ${serverText(cfg)}`, value: cfg }));
}

function serverText(cfg: JsonValue): string {
  if (!isObject(cfg)) return JSON.stringify(cfg);
  if (typeof cfg.url === "string") return cfg.url;
  const args = Array.isArray(cfg.args) ? cfg.args.map(String) : [];
  return [String(cfg.command ?? "?"), ...args].join(" ");
}

