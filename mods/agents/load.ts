// Finding subagent types: agent files (`<folder>/<name>.md`, sub-folders included, Claude Code's
// format; src/lib/md-files.ts), the first to claim a name wins:
//   1. <deepcode home>/agents    2. <user home>/.claude/agents  (user: the person's own)
//   3. folders plugins contributed (api.contribute("agents", dir), or the files a plugin.json
//      lists); named `<plugin>:<name>`
//   4. the built-in types (builtin.ts), which a file of the person's own of the same name replaces
//   5. <root>/.deepcode/agents   6. <root>/.claude/agents       (project)
// A project never silently replaces what the person has (a cloned repository's `explore.md`
// would otherwise turn the read-only explore agent into one that writes): a project file whose
// name a built-in, personal or plugin type already holds (names compared without case) is
// offered as `project:<name>` instead, and said once, naming both. A project's type is the
// project's by its name, as Claude Code's old `/project:` commands were.
// A file whose header cannot be read is reported with file and line and skipped; the rest load.
//
// What deepcode makes of a file's fields:
// - `tools`: names as listed; `Agent`/`Task` is the Task tool, and `Agent(a, b)` limits which
//   types it may start. Claude Code's LS and NotebookRead are Glob and Read (TOOL_STANDINS). A tool with a pattern (`Bash(git *)`) is left out with a note: deepcode
//   gives a subagent a tool whole or not at all, so it never gets more than the file meant.
// - `model`: `inherit`, or a deepcode tier or model id the host knows (`models`, from assembly:
//   the capability table, the session's model, the tiers' models). Anything else — a typo
//   (`fable`), Claude's names (`sonnet`, `opus`, `haiku`, `claude-…`), another vendor's id — is
//   said once, when the agent loads, and the agent runs on the session's model: a name the API
//   does not serve must never reach it as a model id (the Task would fail with a 400), and a
//   Claude name says nothing about which DeepSeek model the person would pay for.

import { createHash } from "node:crypto";
import { basename, join } from "node:path";
import { TOOL_STANDINS, toolNames, type Contribution, type PluginApi } from "../../src/contract/index.js";
import { parseAgentFile } from "../../src/lib/claude-files.js";
import { mdFilesBelow } from "../../src/lib/md-files.js";
import type { Agent } from "./agent.js";
import { BUILTIN_AGENTS } from "./builtin.js";

export type { Agent } from "./agent.js";

export interface AgentPlaces {
  root: string;
  home: string;
  userHome: string;
  plugins: readonly Contribution[];
  /** Whether the person trusted the project (workspace trust): an untrusted project's agent
   *  runs on the caller's model, whatever its `model` says (it must not spend more). */
  trusted?: boolean;
  /** The model ids and tier names the host serves (api.config.models); absent: not checked here
   *  (the host's spawn answer still never sends an unknown one). */
  models?: ReadonlySet<string>;
  /** PluginApi.readOwnFile: an agent file is read with the Read tool's identity checks. */
  read: PluginApi["readOwnFile"];
}

/** An agent file larger than this is skipped (its body is the subagent's system prompt). */
export const MAX_AGENT_BYTES = 1024 * 1024;

/** The prefix a project's agent gets when its own name is taken. */
export const PROJECT_PREFIX = "project:";

export function loadAgents(p: AgentPlaces): { agents: Agent[]; problems: string[] } {
  const places: Array<{ dir: string; scope: Agent["scope"]; source: string; prefix?: string; pins?: Readonly<Record<string, string>>; within?: string[]; files?: readonly string[] } | "builtin"> = [
    { dir: join(p.home, "agents"), scope: "user", source: "~/.deepcode/agents" },
    { dir: join(p.userHome, ".claude", "agents"), scope: "user", source: "~/.claude/agents" },
    ...p.plugins.map((c) => ({ dir: c.dir, scope: "plugin" as const, source: `plugin ${c.source}`, prefix: `${c.source}:`, pins: c.pins, within: [c.dir], files: c.files })),
    "builtin",
    { dir: join(p.root, ".deepcode", "agents"), scope: "project", source: ".deepcode/agents", within: [p.root] },
    { dir: join(p.root, ".claude", "agents"), scope: "project", source: ".claude/agents", within: [p.root] },
  ];
  const byName = new Map<string, Agent>();
  const problems: string[] = [];
  const seen = new Set<string>();
  // The person's files that name a Claude model: one line for all of them (a collection copied
  // into ~/.claude/agents names one in each of its 100-odd files).
  const claude: Array<{ file: string; model: string }> = [];
  // Agent files with `hooks:` in their header (Claude Code runs them while the agent works).
  const withHooks: string[] = [];
  for (const place of places) {
    if (place === "builtin") {
      for (const b of BUILTIN_AGENTS) if (!byName.has(b.name)) byName.set(b.name, b);
      continue;
    }
    const key = place.files ? `${place.dir}\0${place.files.join("\0")}` : place.dir;
    if (seen.has(key)) continue;
    seen.add(key);
    for (const file of mdFilesBelow(place.dir, place.files)) {
      const entry = basename(file);
      // A project's agent file must really lie in the project (a link to ~/.ssh/id_rsa is not
      // read), never a secret, a regular file, bounded (src/core/own-file.ts).
      const r = p.read(file, { within: place.within, maxBytes: MAX_AGENT_BYTES });
      if (!r.ok) {
        // Missing: a dangling link. A folder named *.md is not an agent file either.
        if (!r.missing && !/\(a folder\)/.test(r.reason)) problems.push(`${r.reason}; this agent is skipped`);
        continue;
      }
      if (r.truncated) {
        problems.push(`${file} has ${r.size} bytes, more than an agent file may (${MAX_AGENT_BYTES}); this agent is skipped`);
        continue;
      }
      const data = r.data;
      if (place.pins && place.pins[file] !== createHash("sha256").update(data).digest("hex")) {
        problems.push(`${file}: ${place.pins[file] ? "changed" : "added"} since its plugin was installed; this agent is skipped (deepcode plugin verify)`);
        continue;
      }
      const text = data.toString("utf8");
      const parsed = parseAgentFile(text, entry.replace(/\.md$/i, ""));
      if (!parsed.ok) {
        // One line per file, however many of its lines are wrong.
        problems.push(`${file}:${parsed.problems.map((x) => `${x.line}: ${x.message}`).join("; line ")}; this agent is skipped`);
        continue;
      }
      const f = parsed.value;
      let name = `${place.prefix ?? ""}${f.name}`;
      const notes: string[] = parsed.notes.map((x) => `line ${x.line}: ${x.message}`);
      const held = byName.get(name.toLowerCase());
      if (held && place.scope === "project" && held.scope !== "project") {
        const whose = held.scope === "builtin" ? "the built-in" : held.scope === "plugin" ? `${held.source}'s` : `your own (${held.file ?? held.source})`;
        name = `${PROJECT_PREFIX}${f.name}`;
        problems.push(`${file}: the agent name '${f.name}' is ${whose} ${held.name} agent's, which a project cannot replace; this project's agent is available as '${name}'`);
        notes.push(`named ${name}: '${f.name}' is ${whose} agent's`);
      }
      if (byName.has(name.toLowerCase())) continue;
      if (f.hooks) {
        notes.push("hooks: deepcode does not run an agent's own hooks; it works without them (settings hooks run for every agent)");
        withHooks.push(file);
      }
      const tools = f.tools ? mapTools(f.tools, notes) : undefined;
      const mapped = mapModel(f.model, p.models);
      if (mapped.note) {
        notes.push(`model: ${mapped.note}`);
        // Said once, when the agent loads — for the person's own files; an installed plugin's
        // (someone else's, read at every start) says it in /agents only.
        if (place.pins) {
          // Said in /agents only.
        } else if (mapped.claude) claude.push({ file, model: f.model.trim() });
        else problems.push(`${file}: model: ${mapped.note}`);
      }
      let model = mapped.model;
      if (place.scope === "project" && p.trusted !== true && model !== "inherit") {
        notes.push(`model: ${model} is not used: the project is not trusted, so this agent runs on the caller's model`);
        model = "inherit";
      }
      byName.set(name.toLowerCase(), {
        name,
        description: f.description,
        ...(tools ? { tools: tools.names } : {}),
        ...(tools?.agents ? { agents: tools.agents } : {}),
        disallowedTools: mapTools(f.disallowedTools, notes).names,
        model,
        ...(f.maxTurns !== undefined ? { maxTurns: f.maxTurns } : {}),
        body: f.body,
        scope: place.scope,
        source: place.source,
        file,
        notes,
      });
    }
  }
  if (claude.length === 1) problems.push(`${claude[0].file}: model: '${claude[0].model}' is ${CLAUDE_NOTE}`);
  else if (claude.length > 1) {
    const models = [...new Set(claude.map((c) => c.model))].join(", ");
    problems.push(`${claude.length} agent files name Claude's models (${models}), which deepcode does not serve: they run on the session's model (set model: inherit, or a deepcode tier, to say so; /agents lists them)`);
  }
  if (withHooks.length) problems.push(`${withHooks.join(", ")}: hooks: in an agent's header are not run by deepcode; ${withHooks.length === 1 ? "this agent works" : "these agents work"} without them (settings hooks run for every agent)`);
  return { agents: [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)), problems };
}

/** An agent by the name a model gave (exact first, then ignoring case: Claude's `Explore`). */
export function findAgent(agents: readonly Agent[], name: string): Agent | undefined {
  const n = name.trim();
  return agents.find((a) => a.name === n) ?? agents.find((a) => a.name.toLowerCase() === n.toLowerCase());
}

function mapTools(list: readonly string[], notes: string[]): { names: string[]; agents?: string[] } {
  const names: string[] = [];
  let agents: string[] | undefined;
  for (const item of list) {
    const m = /^([A-Za-z0-9_*-]+)\s*(?:\(([\s\S]*)\))?$/.exec(item.trim());
    if (!m) {
      notes.push(`tools: '${item}' is not a tool name; left out`);
      continue;
    }
    const [, name, spec] = m;
    if (toolNames(name).includes("Task")) {
      names.push("Task");
      if (spec !== undefined && spec.trim() !== "*") (agents ??= []).push(...spec.split(",").map((s) => s.trim()).filter(Boolean));
    } else if (spec !== undefined && spec.trim() !== "*") {
      notes.push(`tools: '${item}' is left out: deepcode gives a subagent a tool whole or not at all (list ${name} to give it whole)`);
    } else if (Object.hasOwn(TOOL_STANDINS, name)) {
      const standin = TOOL_STANDINS[name];
      notes.push(`tools: Claude Code's ${name} is ${standin} here`);
      if (!names.includes(standin)) names.push(standin);
    } else if (!names.includes(name)) names.push(name);
  }
  return { names, ...(agents ? { agents } : {}) };
}

const CLAUDE_NOTE = "Claude's model, which deepcode does not serve; this agent runs on the session's model";

function mapModel(model: string, known: ReadonlySet<string> | undefined): { model: string; note?: string; claude?: boolean } {
  const m = model.trim();
  if (m === "" || m === "inherit") return { model: "inherit" };
  if (known === undefined || known.has(m)) return { model: m };
  const claude = /^(haiku|sonnet|opus|opusplan)$|^claude[-\w.]*$/i.test(m);
  if (claude) return { model: "inherit", note: `'${m}' is ${CLAUDE_NOTE}`, claude };
  return { model: "inherit", note: `'${m}' is not a model deepcode knows; this agent runs on the session's model` };
}
