// Finding skills: `<folder>/<name>/SKILL.md` in these folders, the first to claim a name wins
// (Claude Code's precedence: the person's own skills over the project's, so a repository
// cannot shadow a skill its person relies on):
//   1. <deepcode home>/skills          (user)       3. <root>/.deepcode/skills   (project)
//   2. <user home>/.claude/skills      (user)       4. <root>/.claude/skills     (project)
//   5. folders plugins contributed (api.contribute("skills", dir)); named `<plugin>:<name>`.
//      A contributed folder that holds a SKILL.md itself is that one skill (the shape of
//      Anthropic's skills marketplace: `"skills": ["./skills/pdf"]`).
// A skill is named by its folder (Claude Code's command name); the header's `name` is shown
// beside it when it differs (`name: Hook Development`).
// A SKILL.md whose header cannot be read is reported with its file and line and skipped; the
// rest load. Everything is read again on each call (a few directory reads): a skill added or
// edited mid-session is seen at the next turn.

import { createHash } from "node:crypto";
import { readdirSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import type { Contribution, PluginApi } from "../../src/contract/index.js";
import { parseSkillFile, type SkillFile } from "../../src/lib/claude-files.js";

export interface Skill extends SkillFile {
  /** Its folder (absolute) and its SKILL.md. */
  dir: string;
  file: string;
  scope: "user" | "project" | "plugin";
  /** Where it was found, for people: `.claude/skills`, `~/.deepcode/skills`, `plugin x`. */
  source: string;
  /** Of the whole file: tells a changed skill from the one the model loaded. */
  digest: string;
}

export interface SkillPlaces {
  root: string;
  /** deepcode's home (~/.deepcode or DEEPCODE_HOME). */
  home: string;
  /** The person's home folder, where ~/.claude lives. */
  userHome: string;
  plugins: readonly Contribution[];
  /** PluginApi.readOwnFile: a SKILL.md is read with the Read tool's identity checks. */
  read: PluginApi["readOwnFile"];
}

const MAX_FILES = 100;
/** `{"skill": "list"}` lists every skill (the index may not hold them all): no skill takes it. */
export const LIST = "list";
/** A SKILL.md larger than this is skipped (its body reaches the model when the skill is used). */
export const MAX_SKILL_BYTES = 1024 * 1024;
const MAX_DEPTH = 4;

export function loadSkills(p: SkillPlaces): { skills: Skill[]; problems: string[] } {
  const places: Array<{ dir: string; scope: Skill["scope"]; source: string; prefix?: string; own: boolean; pins?: Readonly<Record<string, string>>; within?: string[] }> = [
    { dir: join(p.home, "skills"), scope: "user", source: "~/.deepcode/skills", own: true },
    { dir: join(p.userHome, ".claude", "skills"), scope: "user", source: "~/.claude/skills", own: false },
    { dir: join(p.root, ".deepcode", "skills"), scope: "project", source: ".deepcode/skills", own: true, within: [p.root] },
    { dir: join(p.root, ".claude", "skills"), scope: "project", source: ".claude/skills", own: false, within: [p.root] },
    ...p.plugins.map((c) => ({ dir: c.dir, scope: "plugin" as const, source: `plugin ${c.source}`, prefix: `${c.source}:`, own: false, pins: c.pins, within: [c.dir] })),
  ];
  const byName = new Map<string, Skill>();
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const place of places) {
    if (seen.has(place.dir)) continue; // DEEPCODE_HOME inside the home folder and the like
    seen.add(place.dir);
    // A plugin's folder that is itself a skill (SKILL.md in it): that one skill.
    const single = place.scope === "plugin" && isFile(join(place.dir, "SKILL.md"));
    const found = single ? [{ entry: basename(place.dir), dir: place.dir }] : entries(place.dir).map((entry) => ({ entry, dir: join(place.dir, entry) }));
    for (const { entry, dir } of found) {
      const file = join(dir, "SKILL.md");
      try {
        if (!statSync(dir).isDirectory()) continue;
      } catch {
        continue; // a dangling link: not a skill folder
      }
      // A project's SKILL.md must really lie in the project (a link to ~/.ssh/id_rsa is not
      // read), never a secret, a regular file, bounded (src/core/own-file.ts).
      const r = p.read(file, { within: place.within, maxBytes: MAX_SKILL_BYTES });
      if (!r.ok) {
        if (!r.missing) problems.push(`${r.reason}; this skill is skipped`);
        continue;
      }
      if (r.truncated) {
        problems.push(`${file} has ${r.size} bytes, more than a SKILL.md may (${MAX_SKILL_BYTES}); this skill is skipped`);
        continue;
      }
      const data = r.data;
      const digest = createHash("sha256").update(data).digest("hex");
      if (place.pins && place.pins[file] !== digest) {
        problems.push(`${file}: ${place.pins[file] ? "changed" : "added"} since its plugin was installed; this skill is skipped (deepcode plugin verify)`);
        continue;
      }
      const text = data.toString("utf8");
      const parsed = parseSkillFile(text, entry);
      if (!parsed.ok) {
        // One line per file, however many of its lines are wrong.
        problems.push(`${file}:${parsed.problems.map((x) => `${x.line}: ${x.message}`).join("; line ")}; this skill is skipped`);
        continue;
      }
      if (place.own) for (const x of parsed.notes) problems.push(`${file}:${x.line}: ${x.message}`);
      if (parsed.value.name === LIST) {
        problems.push(`${file}: the skill name '${LIST}' is the Skill tool's listing of every skill; rename the folder; this skill is skipped`);
        continue;
      }
      const name = `${place.prefix ?? ""}${parsed.value.name}`;
      if (byName.has(name)) continue; // a higher-precedence folder already has it
      byName.set(name, { ...parsed.value, name, dir, file, scope: place.scope, source: place.source, digest });
    }
  }
  return { skills: [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)), problems };
}

/** The files beside SKILL.md (scripts, references), absolute, at most MAX_FILES. */
export function skillFiles(dir: string): { files: string[]; more: boolean } {
  const files: string[] = [];
  let more = false;
  const walk = (d: string, depth: number): void => {
    for (const name of entries(d)) {
      if (name === "node_modules") continue;
      const p = join(d, name);
      let isDir: boolean;
      try {
        isDir = statSync(p).isDirectory();
      } catch {
        continue; // a dangling link: nothing to read
      }
      if (isDir) {
        if (depth < MAX_DEPTH) walk(p, depth + 1);
      } else if (!(d === dir && name === "SKILL.md")) {
        if (files.length >= MAX_FILES) more = true;
        else files.push(p);
      }
    }
  };
  walk(dir, 0);
  return { files, more };
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false; // no such file: a folder of skills, not a skill
  }
}

function entries(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((n) => !n.startsWith("."))
      .sort();
  } catch {
    return []; // no such folder (the usual case): nothing here
  }
}
