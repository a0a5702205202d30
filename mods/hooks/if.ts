// The `if` key of a hook command: Claude Code's conditional, written in permission-rule syntax
// (`Bash(git commit *)`, `Bash(npm test:*)`, `Edit(*.ts)`, `Write(src/**)`). The command runs
// only for a tool call the rule matches; on events that are not about a tool call
// (UserPromptSubmit, Stop, SessionStart …) a command with `if` never runs — Claude Code's rule.
//
// What a rule matches:
// - `Tool` alone: every call of that tool (its other names too: `Agent` is `Task`).
// - Bash: the command is cut into its parts (`&&`, `||`, `;`, `|`, `&`, new lines; quotes
//   respected) and the rule matches when any part does, after leading `VAR=value` words. A
//   pattern ending in `:*` is a word-boundary prefix (`git commit:*`); one holding `*` is a
//   glob over the whole part (`*` any characters; a trailing ` *` also takes the bare command);
//   anything else must equal the part. A command with `$(…)`, backticks or `<(…)` cannot be cut
//   reliably: the rule matches (the hook runs — for a PreToolUse policy hook, seeing a call it
//   did not need beats missing one it did).
// - Read, Edit, Write, MultiEdit, NotebookEdit, Glob, Grep: the call's path. A pattern without
//   `/` matches the file's name at any depth (`*.py`); with one it is a path: `//abs` absolute,
//   `~/x` under the home folder, `/x` or `x` under the project root. `*` is one path segment's
//   characters, `**` any number of segments.
// - WebFetch: `domain:host` (the URL's host, or a subdomain of it).
// - Task / Agent: the subagent type.
// - Any other tool with a pattern: deepcode cannot read what the pattern means for it, so the
//   hook runs on every call of the tool (said once at start).

import { homedir } from "node:os";
import { basename, isAbsolute, resolve } from "node:path";
import type { JsonValue } from "../../src/contract/index.js";

export interface IfRule {
  /** As written, for messages. */
  text: string;
  tool: string;
  /** Inside the parentheses; null for a bare tool name. */
  pattern: string | null;
}

const FILE_TOOLS = new Set(["Read", "Edit", "Write", "MultiEdit", "NotebookEdit", "Glob", "Grep", "LS"]);
const AGENT_TOOLS = new Set(["Task", "Agent"]);

/** The rule, or why it cannot be read. */
export function parseIf(value: JsonValue | undefined): IfRule | string {
  if (typeof value !== "string" || value.trim() === "") return "'if' must be a permission rule such as \"Bash(git commit *)\"";
  const text = value.trim();
  const m = /^([A-Za-z0-9_*:.-]+)(?:\((.*)\))?$/s.exec(text);
  if (!m) return `'if' ${JSON.stringify(text)} is not a permission rule (Tool or Tool(pattern), e.g. "Bash(git commit *)")`;
  const pattern = m[2] === undefined ? null : m[2].trim();
  if (pattern === "") return `'if' ${JSON.stringify(text)} has an empty pattern`;
  return { text, tool: m[1], pattern };
}

/** Whether deepcode knows what the rule's pattern means for its tool (else: every call). */
export function understood(rule: IfRule): boolean {
  if (rule.pattern === null || rule.pattern === "*") return true;
  return rule.tool === "Bash" || FILE_TOOLS.has(rule.tool) || AGENT_TOOLS.has(rule.tool) || (rule.tool === "WebFetch" && rule.pattern.startsWith("domain:"));
}

/** Does the call (a tool known by `names`, with `input`) meet the rule? */
export function ifMatches(rule: IfRule, names: readonly string[], input: Readonly<Record<string, JsonValue>>, root: string): boolean {
  const sameTool = names.includes(rule.tool) || (AGENT_TOOLS.has(rule.tool) && names.some((n) => AGENT_TOOLS.has(n)));
  if (!sameTool) return false;
  const p = rule.pattern;
  if (p === null || p === "*" || !understood(rule)) return true;
  if (rule.tool === "Bash") return typeof input.command === "string" && bashMatches(p, input.command);
  if (AGENT_TOOLS.has(rule.tool)) return input.subagent_type === p;
  if (rule.tool === "WebFetch") {
    const want = p.slice("domain:".length).toLowerCase();
    let host: string;
    try {
      host = new URL(String(input.url ?? "")).hostname.toLowerCase();
    } catch {
      return true; // not a URL deepcode can read: the hook decides
    }
    return host === want || host.endsWith(`.${want}`);
  }
  const path = [input.file_path, input.notebook_path, input.path].find((v): v is string => typeof v === "string");
  if (path === undefined) return rule.tool === "Glob" || rule.tool === "Grep" ? pathMatches(p, root, root) : false;
  return pathMatches(p, isAbsolute(path) ? path : resolve(root, path), root);
}

function pathMatches(pattern: string, file: string, root: string): boolean {
  if (!pattern.includes("/")) return globRegex(pattern, false).test(basename(file));
  let anchored: string;
  if (pattern.startsWith("//")) anchored = pattern.slice(1);
  else if (pattern.startsWith("~/")) anchored = resolve(homedir(), pattern.slice(2));
  else anchored = resolve(root, pattern.replace(/^\.?\//, ""));
  // resolve() drops a trailing `/**`'s meaning only when it is not there: keep globs as written.
  if (pattern.endsWith("/**") && !anchored.endsWith("/**")) anchored = `${anchored}/**`;
  return globRegex(anchored, false).test(file);
}

/** `*` → any characters but `/` (or any at all when `crossSlash`), `**` → anything. */
function globRegex(glob: string, crossSlash: boolean): RegExp {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "*" && glob[i + 1] === "*") {
      const slash = glob[i + 2] === "/";
      out += slash ? "(?:.*/)?" : ".*";
      i += slash ? 2 : 1;
    } else if (c === "*") out += crossSlash ? ".*" : "[^/]*";
    else if (c === "?") out += crossSlash ? "." : "[^/]";
    else out += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${out}$`, "s");
}

function bashMatches(pattern: string, command: string): boolean {
  if (/\$\(|`|[<>]\(/.test(command)) return true; // cannot be cut reliably: let the hook decide
  return splitCommand(command).some((part) => partMatches(pattern, part));
}

function partMatches(pattern: string, part: string): boolean {
  const p = pattern.replace(/\s+/g, " ").trim();
  if (p.endsWith(":*")) {
    const prefix = p.slice(0, -2).trim();
    return part === prefix || part.startsWith(`${prefix} `);
  }
  if (p.includes("*")) {
    if (p.endsWith(" *") && part === p.slice(0, -2)) return true;
    return globRegex(p, true).test(part);
  }
  return part === p;
}

/** What stands before a simple command's name: `VAR=value` words and shell keywords. */
const LEADING = /^(?:(?:[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|"[^"]*"|\S*)|\{|!|then|do|else|elif|if|while|until|time) )+/;

/** The simple commands of a command line, each with leading assignments dropped and its
 *  whitespace normalised. Quotes keep their content (an operator inside them is text). */
export function splitCommand(command: string): string[] {
  const parts: string[] = [];
  let cur = "";
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (quote) {
      if (c === "\\" && quote === '"' && i + 1 < command.length) {
        cur += c + command[++i];
        continue;
      }
      if (c === quote) quote = null;
      cur += c;
      continue;
    }
    if (c === "\\" && i + 1 < command.length) {
      cur += c + command[++i];
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      cur += c;
      continue;
    }
    if (c === ";" || c === "\n" || c === "|" || c === "&" || c === "(" || c === ")") {
      parts.push(cur);
      cur = "";
      continue;
    }
    cur += c;
  }
  parts.push(cur);
  return parts
    .map((p) => p.replace(/\s+/g, " ").trim().replace(LEADING, ""))
    .filter((p) => p !== "");
}
