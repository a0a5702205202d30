// Claude Code's skill and agent files, read into plain fields: pure functions over a file's
// text, shared by the mods that act on them (skills, agents) and by workspace trust (which
// lists what a project's files would grant, exactly as the mods read it).
//
// SKILL.md (`<skills folder>/<name>/SKILL.md`): the skill's name is its folder's name, as
// Claude Code derives a skill's command (`/pdf` for `skills/pdf/`); `name` is the display name
// people see in listings (`name: Hook Development`), `description` (default: the body's first
// paragraph), `allowed-tools`, `argument-hint`,
// `disable-model-invocation`, `user-invocable`, and keys deepcode reads but does not act on
// (`model`, `effort`, `context`, `agent`, `hooks`, `license`, `metadata`, …).
// Agent files (`<agents folder>/<name>.md`): `name` (default: the file's name), `description`,
// `tools` (absent: the caller's tools), `disallowedTools`, `model` (`inherit`, a Claude model
// name, a deepcode tier or a model id), `maxTurns`; the body is the agent's system prompt.
//
// A file is refused (with the line) when its header cannot be read where it matters: an
// unclosed header, a line that is not `key: value`, a bad value for a key deepcode uses, or a
// name that is not a name. A problem in a key deepcode does not use is a note, not a refusal
// (Claude Code files carry keys of newer versions, often nested YAML deepcode does not parse).

import { listField, parseFrontmatter, type Frontmatter, type FrontmatterValue } from "./frontmatter.js";

export interface FileProblem {
  line: number;
  message: string;
}

export interface SkillFile {
  /** The folder's name: what `/name`, the Skill tool and the index use. */
  name: string;
  /** The header's `name` when it differs from the folder's (a display name, spaces allowed). */
  displayName?: string;
  description: string;
  allowedTools: string[];
  argumentHint?: string;
  /** `disable-model-invocation: true`: only the person loads it (`/name`), the model is not told of it. */
  modelInvocable: boolean;
  /** `user-invocable: false`: no `/name` command. */
  userInvocable: boolean;
  body: string;
}

export interface AgentFile {
  name: string;
  description: string;
  /** Absent: every tool the caller has. */
  tools?: string[];
  disallowedTools: string[];
  /** As written (`inherit` when absent). */
  model: string;
  maxTurns?: number;
  /** The header has `hooks:` (Claude Code runs them while the agent works; deepcode does not). */
  hooks?: boolean;
  /** The system prompt. */
  body: string;
}

export type Parsed<T> = { ok: true; value: T; notes: FileProblem[] } | { ok: false; problems: FileProblem[] };

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const SKILL_KEYS = ["name", "description", "allowed-tools", "argument-hint", "disable-model-invocation", "user-invocable"];
const AGENT_KEYS = ["name", "description", "tools", "disallowedTools", "disallowed-tools", "model", "maxTurns"];
/** Every key of Claude Code's formats (read or not): inside a value read leniently (one that
 *  continues on unindented lines) only these start the next key, so an example's `user: "…"`
 *  line stays part of the description. */
export const SKILL_FORMAT_KEYS: readonly string[] = [...SKILL_KEYS, "model", "effort", "context", "agent", "hooks", "license", "metadata", "version", "when_to_use", "paths", "shell", "disallowed-tools", "arguments"];
export const AGENT_FORMAT_KEYS: readonly string[] = [...AGENT_KEYS, "color", "permissionMode", "skills", "hooks", "mcpServers", "memory", "background", "isolation", "effort", "initialPrompt", "version"];

/** The note a file read leniently gets (one per file, whatever the number of keys). */
function lenientNote(fm: Frontmatter): FileProblem[] {
  if (fm.lenient.length === 0) return [];
  const keys = fm.lenient.map((l) => l.key);
  return [{ line: fm.lenient[0].line, message: `${keys.join(", ")} continue${keys.length === 1 ? "s" : ""} on unindented lines; read as Claude Code reads it (indent the continuation, or use '|-', to make it plain YAML)` }];
}

export function parseSkillFile(text: string, folderName: string): Parsed<SkillFile> {
  const { fm, f, problems, notes } = header(text, SKILL_KEYS, SKILL_FORMAT_KEYS);
  // Claude Code names a skill by its folder; the header's `name` is what listings show.
  const name = folderName;
  const display = scalar(f.get("name"));
  if (!NAME.test(name)) problems.push({ line: 1, message: `the folder name '${name}' is not a skill name (letters, digits, '-', '_', '.'; at most 64)` });
  const model = flag("disable-model-invocation", f.get("disable-model-invocation"), problems);
  const user = flag("user-invocable", f.get("user-invocable"), problems);
  if (problems.length) return { ok: false, problems };
  const body = fm.body.replace(/^\s*\n/, "");
  const hint = f.get("argument-hint");
  return {
    ok: true,
    notes,
    value: {
      name,
      ...(display && display !== name ? { displayName: display } : {}),
      description: scalar(f.get("description")) || firstParagraph(body),
      allowedTools: f.has("allowed-tools") ? listField(f.get("allowed-tools")!) : [],
      ...(hint ? { argumentHint: Array.isArray(hint.value) ? hint.raw : hint.value } : {}),
      modelInvocable: model !== true,
      userInvocable: user !== false,
      body,
    },
  };
}

export function parseAgentFile(text: string, fileName: string): Parsed<AgentFile> {
  const { fm, f, problems, notes } = header(text, AGENT_KEYS, AGENT_FORMAT_KEYS);
  const name = scalar(f.get("name")) || fileName;
  if (!NAME.test(name)) problems.push({ line: f.get("name")?.line ?? 1, message: `'${name}' is not an agent name (letters, digits, '-', '_', '.'; at most 64)` });
  let maxTurns: number | undefined;
  const mt = f.get("maxTurns");
  if (mt) {
    maxTurns = Number(scalar(mt));
    if (!Number.isInteger(maxTurns) || maxTurns < 1) problems.push({ line: mt.line, message: `maxTurns must be a whole number ≥ 1, not ${JSON.stringify(scalar(mt))}` });
  }
  if (problems.length) return { ok: false, problems };
  const body = fm.body.replace(/^\s*\n/, "");
  const tools = f.get("tools");
  const disallowed = f.get("disallowedTools") ?? f.get("disallowed-tools");
  return {
    ok: true,
    notes,
    value: {
      name,
      description: scalar(f.get("description")) || firstParagraph(body),
      ...(tools ? { tools: listField(tools) } : {}),
      disallowedTools: disallowed ? listField(disallowed) : [],
      model: scalar(f.get("model")) || "inherit",
      ...(maxTurns !== undefined ? { maxTurns } : {}),
      ...(f.has("hooks") ? { hooks: true } : {}),
      body,
    },
  };
}

/** The header and what is wrong with it (problems refuse the file; notes do not). */
function header(text: string, used: readonly string[], keys: readonly string[]) {
  const fm = parseFrontmatter(text, { keys });
  const { problems, notes } = sortProblems(fm, used);
  notes.push(...lenientNote(fm));
  return { fm, f: fm.fields, problems, notes };
}

/** Problems that refuse the file (structure, keys in use) and notes (other keys). */
function sortProblems(fm: Frontmatter, used: readonly string[]): { problems: FileProblem[]; notes: FileProblem[] } {
  const problems: FileProblem[] = [];
  const notes: FileProblem[] = [];
  for (const p of fm.problems) {
    if (p.key === undefined || (used.includes(p.key) && !p.message.includes("appears twice"))) problems.push({ line: p.line, message: p.message });
    else notes.push({ line: p.line, message: `${p.message} (deepcode does not use '${p.key}'; ignored)` });
  }
  return { problems, notes };
}

function scalar(v: FrontmatterValue | undefined): string {
  if (!v) return "";
  return (Array.isArray(v.value) ? v.value.join(", ") : v.value).trim();
}

/** `true`/`false` (YAML's yes/no too); anything else is a problem. Absent: undefined. */
function flag(key: string, v: FrontmatterValue | undefined, problems: FileProblem[]): boolean | undefined {
  if (!v) return undefined;
  const s = scalar(v).toLowerCase();
  if (["true", "yes", "on"].includes(s)) return true;
  if (["false", "no", "off"].includes(s)) return false;
  problems.push({ line: v.line, message: `${key}: expected true or false, found ${JSON.stringify(scalar(v))}` });
  return undefined;
}

/** The body's first paragraph, without heading marks, on one line and at most 250 characters. */
function firstParagraph(body: string): string {
  const para = body.trim().split(/\n\s*\n/)[0] ?? "";
  const line = para.split("\n").map((l) => l.replace(/^\s*#+\s*/, "").trim()).filter(Boolean).join(" ");
  return line.length > 250 ? `${line.slice(0, 249)}…` : line;
}
