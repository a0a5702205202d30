// Permission rules in Claude Code's grammar, parsed once at start.
//
//   Tool                     every call of the tool (`Bash`, `Edit`, `mcp__github__create_issue`)
//   Bash(git push:*)         a command starting with `git push` at a token boundary
//   Bash(npm test)           exactly that command (a compound text: exactly that whole line)
//   Bash(npm run *)          Claude Code's wildcard form: `*` is any text; a trailing ` *` is optional
//   Read(~/.ssh/**)          a path pattern (gitignore-style, see glob-match.ts): `~/` home,
//   Edit(src/**)             `//` the filesystem root, `/x` and `./x` the project root, a name
//   Write(//etc/**)          without `/` any depth below the project root
//   WebFetch(domain:x.com)   a host and its subdomains
//   mcp__server              every tool of an MCP server (also `mcp__server__*`)
//   Task(explore)            the Task tool when it starts that agent type; `Agent` is Claude
//   Agent                    Code's newer name for Task, and either name governs the tool
//
// Edit, Write, MultiEdit and NotebookEdit rules govern each other (they all edit files); Read
// rules also govern Glob, Grep and LS. A rule that cannot apply (a specifier for a tool that takes
// none, like `Glob(git:*)`) or cannot be parsed is ignored with a warning naming where it is.

import { toolNames } from "../../contract/index.js";
import { lex } from "../../lib/shell/lexer.js";
import type { RuleKind, RuleLayer, RuleSource } from "../settings/types.js";

export type { RuleKind, RuleLayer, RuleSource };

export const EDIT_TOOLS: ReadonlySet<string> = new Set(["Edit", "Write", "MultiEdit", "NotebookEdit"]);
export const READ_TOOLS: ReadonlySet<string> = new Set(["Read", "Glob", "Grep", "LS"]);

export type RuleMatch =
  | { type: "tool" }
  | { type: "bash-prefix"; tokens: string[] }
  /** `tokens` null: a compound command line, matched as a whole (`whole`, trimmed). */
  | { type: "bash-exact"; tokens: string[] | null; whole: string }
  /** `words`: the whole words before the first `*` (`firstWord` is words[0]). */
  | { type: "bash-wildcard"; regex: RegExp; firstWord: string | null; literalWords: number; words: string[] }
  | { type: "path"; anchor: "root" | "home" | "abs" | "anywhere"; glob: string }
  | { type: "domain"; domain: string }
  /** `Task(explore)`: the agent type a Task call starts (its `subagent_type`). */
  | { type: "agent"; name: string }
  /** `Skill(pdf)`, `Skill(document-skills:*)`: the skill a Skill call loads (its `skill`), by
   *  name or, with `:*`, by the start of its name (a plugin's skills). */
  | { type: "skill"; name: string; prefix: boolean };

export type RuleFamily = "bash" | "edit" | "read" | "webfetch" | "mcp" | "agent" | "tool";

export interface Rule extends RuleSource {
  /** The tool name as written (`Bash`, `Write`, `mcp__github`). */
  tool: string;
  family: RuleFamily;
  match: RuleMatch;
  /** For `mcp__server` / `mcp__server__*`: every tool of that server. */
  mcpServer?: string;
  /** Applies to the tool it names only, not to its family (an `a` answer remembers exactly
   *  what the screen said: `Write` does not also allow Edit). */
  exact?: boolean;
}

export interface CompiledRules {
  rules: Rule[];
  /** One line per ignored rule, with file:line:column when known. */
  warnings: string[];
}

export function compileRules(sources: readonly RuleSource[]): CompiledRules {
  const rules: Rule[] = [];
  const warnings: string[] = [];
  for (const s of sources) {
    const r = parseRule(s);
    if ("rule" in r) rules.push(r.rule);
    else warnings.push(`${where(s)}: ${s.kind} rule ${JSON.stringify(s.text)} ignored: ${r.problem}`);
  }
  return { rules, warnings };
}

export function parseRule(src: RuleSource): { rule: Rule } | { problem: string } {
  const text = src.text.trim();
  const m = /^([A-Za-z0-9_*-]+)(?:\(([\s\S]*)\))?$/.exec(text);
  if (!m) return { problem: "not a rule (expected Tool or Tool(specifier), e.g. Bash(npm test:*))" };
  const tool = m[1];
  const spec = m[2];
  const base = { ...src, text, tool };

  if (tool.startsWith("mcp__")) {
    if (spec !== undefined) return { problem: "MCP rules take no specifier (mcp__server or mcp__server__tool)" };
    const parts = tool.split("__");
    if (parts.length === 2 || (parts.length === 3 && parts[2] === "*")) {
      if (parts[1] === "" || parts[1].includes("*")) return { problem: "an MCP rule needs a server name" };
      return { rule: { ...base, family: "mcp", match: { type: "tool" }, mcpServer: parts[1] } };
    }
    if (tool.includes("*")) return { problem: "'*' is only allowed as mcp__server__*" };
    return { rule: { ...base, family: "mcp", match: { type: "tool" } } };
  }
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(tool)) return { problem: `'${tool}' is not a tool name` };

  const family: RuleFamily =
    tool === "Bash" ? "bash" : EDIT_TOOLS.has(tool) ? "edit" : tool === "Read" ? "read" : tool === "WebFetch" ? "webfetch" : toolNames(tool).includes("Task") ? "agent" : "tool";
  if (spec === undefined || (spec.trim() === "*" && family !== "webfetch")) return { rule: { ...base, family, match: { type: "tool" } } };

  switch (family) {
    case "bash": {
      const match = parseBashSpec(spec.trim());
      return "problem" in match ? match : { rule: { ...base, family, match } };
    }
    case "edit":
    case "read": {
      const match = parsePathSpec(spec.trim());
      return "problem" in match ? match : { rule: { ...base, family, match } };
    }
    case "agent": {
      const name = spec.trim();
      if (!/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/.test(name)) return { problem: `${tool}(...) takes an agent type, like ${tool}(explore)` };
      return { rule: { ...base, family, match: { type: "agent", name } } };
    }
    case "webfetch": {
      const d = /^domain:\s*([A-Za-z0-9.*-]+)$/.exec(spec.trim());
      if (!d) return { problem: "WebFetch rules look like WebFetch(domain:example.com)" };
      return { rule: { ...base, family, match: { type: "domain", domain: d[1].toLowerCase().replace(/^\*\./, "") } } };
    }
    default:
      if (tool === "Skill") {
        const name = spec.trim();
        const m = /^([A-Za-z0-9][A-Za-z0-9_.:-]*?)(:\*)?$/.exec(name);
        if (!m) return { problem: "Skill(...) takes a skill's name, like Skill(pdf) or Skill(document-skills:*)" };
        return { rule: { ...base, family, match: { type: "skill", name: m[1].toLowerCase(), prefix: m[2] !== undefined } } };
      }
      if (tool === "Glob" || tool === "Grep" || tool === "LS") {
        return { problem: `${tool} takes no specifier: Read(...) rules govern the paths ${tool} searches` };
      }
      return { problem: `${tool}(...) is not a rule deepcode can apply: only Bash, Read, Edit, Write, WebFetch, Task and Skill take a specifier` };
  }
}

function parseBashSpec(spec: string): RuleMatch | { problem: string } {
  if (spec === "") return { problem: "empty command in Bash()" };
  if (spec.endsWith(":*")) {
    const prefix = spec.slice(0, -2).trim();
    if (prefix === "") return { problem: "empty prefix before :*" };
    if (/(?<!\\)\*/.test(prefix)) return { problem: "mixes a :* prefix with a * wildcard" };
    const words = ruleWords(prefix);
    if ("problem" in words) return words;
    if (words.compound) return { problem: "a prefix rule matches one command; this one contains shell operators" };
    return { type: "bash-prefix", tokens: words.tokens };
  }
  if (spec.includes(":*")) return { problem: ":* may only end a rule (Bash(git push:*))" };
  if (/(?<!\\)\*/.test(spec)) return wildcard(spec);
  const words = ruleWords(spec);
  if ("problem" in words) return words;
  // `\*` is a literal star (rememberRule escapes the stars of an exact line this way).
  return { type: "bash-exact", tokens: words.compound ? null : words.tokens, whole: spec.replace(/\\\*/g, "*") };
}

function ruleWords(s: string): { tokens: string[]; compound: boolean } | { problem: string } {
  const lexed = lex(s);
  if (lexed.unsure.length > 0) return { problem: `cannot read the command: ${lexed.unsure[0]}` };
  const tokens: string[] = [];
  let compound = false;
  for (const t of lexed.tokens) {
    if (t.t === "word") {
      if (t.w.unsure.length > 0) return { problem: `cannot read the command: ${t.w.unsure[0]}` };
      tokens.push(t.w.value);
    } else compound = true;
  }
  if (tokens.length === 0) return { problem: "no command in the rule" };
  return { tokens, compound };
}

function wildcard(spec: string): RuleMatch {
  const s = spec.replace(/\s+/g, " ");
  let re = "";
  let stars = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === "\\" && s[i + 1] === "*") {
      re += "\\*";
      i++;
    } else if (s[i] === "*") {
      re += ".*";
      stars++;
    } else re += s[i].replace(/[.+?^${}()|[\]\\/]/g, "\\$&");
  }
  // Claude Code: `Bash(ls *)` also matches `ls` alone, but not `lsof` (the space is a boundary).
  if (stars === 1 && s.endsWith(" *")) re = `${re.slice(0, -3)}(?: .*)?`;
  const literal = s.slice(0, s.search(/(?<!\\)\*/));
  const words = literal.split(" ");
  const complete = words.slice(0, -1).filter((w) => w !== "");
  return {
    type: "bash-wildcard",
    regex: new RegExp(`^${re}$`, "s"),
    firstWord: complete.length > 0 ? complete[0] : null,
    literalWords: complete.length,
    words: complete,
  };
}

function parsePathSpec(spec: string): RuleMatch | { problem: string } {
  if (spec === "") return { problem: "empty path" };
  const trim = (g: string): string => g.replace(/\/+$/, "");
  if (spec.startsWith("//")) return { type: "path", anchor: "abs", glob: trim(spec.replace(/^\/+/, "")) };
  if (spec === "~" || spec.startsWith("~/")) return { type: "path", anchor: "home", glob: trim(spec.slice(2)) };
  if (spec.startsWith("~")) return { problem: "~user paths are not supported (write the path with // instead)" };
  if (spec.startsWith("/")) return { type: "path", anchor: "root", glob: trim(spec.slice(1)) };
  if (spec.startsWith("./")) return { type: "path", anchor: "root", glob: trim(spec.slice(2)) };
  const g = trim(spec);
  if (g.includes("/")) return { type: "path", anchor: "root", glob: g };
  return { type: "path", anchor: "anywhere", glob: g };
}

/** Does this rule concern calls of `tool` at all (before looking at the call's input)? */
export function ruleAppliesTo(rule: Rule, tool: string): boolean {
  if (rule.exact && (rule.family === "edit" || rule.family === "read")) return rule.tool === tool;
  switch (rule.family) {
    case "edit":
      return EDIT_TOOLS.has(tool);
    case "read":
      return READ_TOOLS.has(tool);
    case "mcp":
      return rule.mcpServer !== undefined ? tool.startsWith(`mcp__${rule.mcpServer}__`) : rule.tool === tool;
    case "agent":
      return toolNames(rule.tool).includes(tool);
    default:
      return rule.tool === tool;
  }
}

/** How a decision names a rule: the rule and its layer. */
export function describeRule(rule: Rule): string {
  return `${rule.text} (${rule.layer})`;
}

function where(s: RuleSource): string {
  if (!s.file) return s.layer;
  return s.line ? `${s.file}:${s.line}:${s.column ?? 1}` : s.file;
}
