// hookify rule files, read into rules: `hookify.<name>.local.md` in the project's `.claude/`
// and `.deepcode/`, the person's `~/.claude/` and deepcode's home (`~/.deepcode/`). A file is
// read again when its size or mtime changes (checked at each event: a readdir and a stat per
// file), so an edited rule applies at the next tool call without a restart.
//
// A rule that cannot be read (a header line that does not parse, an unknown event, action or
// operator, a pattern that does not compile, a field its event never has, nothing to match)
// disables itself alone and is reported with its file and line. It does not fail open where it
// meant to stop something: a broken rule whose action is (or may be) `block` or `ask` makes the
// tool calls of its own event ask — a broken `bash` rule makes Bash calls ask, not every tool.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseHeader, type Scalar } from "./parse.js";
import { compilePattern } from "./regex.js";

export const EVENTS = ["bash", "file", "stop", "prompt", "all"] as const;
export type RuleEvent = (typeof EVENTS)[number];
export const ACTIONS = ["warn", "block", "ask"] as const;
export type RuleAction = (typeof ACTIONS)[number];
export const OPERATORS = ["regex_match", "contains", "equals", "not_contains", "starts_with", "ends_with"] as const;
type Operator = (typeof OPERATORS)[number];

/** The fields each event offers (`all` rules and `tool_matcher` rules may name any tool input). */
export const FIELDS: Record<Exclude<RuleEvent, "all">, readonly string[]> = {
  bash: ["command"],
  file: ["file_path", "new_text", "new_string", "old_text", "old_string", "content"],
  prompt: ["user_prompt", "prompt"],
  stop: ["transcript", "reason"],
};
/** What a bare `pattern:` is matched against, per event. */
const LEGACY_FIELD: Record<RuleEvent, string> = { bash: "command", file: "new_text", prompt: "user_prompt", stop: "transcript", all: "*" };

export interface Condition {
  field: string;
  operator: Operator;
  pattern: string;
  test(value: string): boolean;
}

export interface Rule {
  kind: "rule";
  name: string;
  file: string;
  line: number;
  enabled: boolean;
  event: RuleEvent;
  action: RuleAction;
  /** `tool_matcher`: `Bash`, `Edit|Write`, `*`. */
  tools?: ReadonlySet<string> | "*";
  conditions: Condition[];
  message: string;
}

export interface Broken {
  kind: "broken";
  name: string;
  file: string;
  line: number;
  problem: string;
  /** The event it was meant for (null: unreadable, so every event). */
  event: RuleEvent | null;
  /** Its action as written (null: unreadable, so it may have been a block). */
  action: RuleAction | null;
  enabled: boolean;
}

export type Loaded = Rule | Broken;

/** `o.fromProject`: the file is in the project's own folders (a cloned repository's choice). */
export function readRule(file: string, text: string, o: { fromProject?: boolean } = {}): Loaded {
  const fallbackName = /hookify\.(.+)\.local\.md$/.exec(file)?.[1] ?? file;
  const h = parseHeader(text);
  const s = (k: string): Scalar | undefined => h.scalars.get(k);
  const name = s("name")?.value || fallbackName;
  const eventRaw = s("event")?.value.toLowerCase();
  const event = eventRaw === undefined ? "all" : (EVENTS as readonly string[]).includes(eventRaw) ? (eventRaw as RuleEvent) : null;
  const actionRaw = s("action")?.value.toLowerCase();
  const action = actionRaw === undefined ? "warn" : (ACTIONS as readonly string[]).includes(actionRaw) ? (actionRaw as RuleAction) : null;
  const enabledRaw = s("enabled")?.value.toLowerCase();
  const enabled = enabledRaw !== "false";
  const broken = (line: number, problem: string): Broken => ({ kind: "broken", name, file, line, problem, event, action, enabled: enabled || enabledRaw === undefined });
  if (h.missing) return broken(1, h.missing);
  if (h.problems.length) return broken(h.problems[0].line, h.problems[0].message);
  if (enabledRaw !== undefined && enabledRaw !== "true" && enabledRaw !== "false") return broken(s("enabled")!.line, `enabled must be true or false, not ${JSON.stringify(s("enabled")!.value)}`);
  if (event === null) return broken(s("event")!.line, `event must be one of ${EVENTS.join(", ")}, not ${JSON.stringify(eventRaw)}`);
  if (action === null) return broken(s("action")!.line, `action must be one of warn, block, ask, not ${JSON.stringify(actionRaw)}`);
  const tm = s("tool_matcher");
  const tools = tm ? (tm.value.trim() === "*" ? "*" : new Set(tm.value.split("|").map((t) => t.trim()).filter(Boolean))) : undefined;
  const conditions: Condition[] = [];
  const list = h.lists.get("conditions");
  const pattern = s("pattern");
  if (list) {
    if (list.items.length === 0) return broken(list.line, "conditions: has no items");
    for (const item of list.items) {
      const first = [...item.values()][0]?.line ?? list.line;
      const field = item.get("field");
      if (!field?.value) return broken(first, "a condition has no field");
      const opRaw = item.get("operator")?.value ?? "regex_match";
      if (!(OPERATORS as readonly string[]).includes(opRaw)) return broken(item.get("operator")!.line, `operator must be one of ${OPERATORS.join(", ")}, not ${JSON.stringify(opRaw)}`);
      const p = item.get("pattern");
      if (p === undefined) return broken(first, `the condition on ${field.value} has no pattern`);
      if (event !== "all" && tools === undefined && !FIELDS[event].includes(field.value)) {
        return broken(field.line, `${event} rules have no field ${JSON.stringify(field.value)} (they have ${FIELDS[event].join(", ")}), so this rule would never match`);
      }
      const c = condition(field.value, opRaw as Operator, p.value, o.fromProject);
      if ("error" in c) return broken(p.line, c.error);
      conditions.push(c);
    }
  } else if (pattern) {
    const c = condition(LEGACY_FIELD[event], "regex_match", pattern.value, o.fromProject);
    if ("error" in c) return broken(pattern.line, c.error);
    conditions.push(c);
  } else return broken(1, "it has neither pattern nor conditions, so it would never match");
  return { kind: "rule", name, file, line: s("name")?.line ?? 1, enabled, event, action, tools, conditions, message: h.body };
}

function condition(field: string, operator: Operator, pattern: string, untrusted = false): Condition | { error: string } {
  if (operator === "regex_match") {
    const re = compilePattern(pattern, { untrusted });
    if ("error" in re) return re;
    return { field, operator, pattern, test: (v) => re.test(v) };
  }
  const test: Record<Exclude<Operator, "regex_match">, (v: string) => boolean> = {
    contains: (v) => v.includes(pattern),
    equals: (v) => v === pattern,
    not_contains: (v) => !v.includes(pattern),
    starts_with: (v) => v.startsWith(pattern),
    ends_with: (v) => v.endsWith(pattern),
  };
  return { field, operator, pattern, test: test[operator] };
}

const RULE_FILE = /^hookify\..+\.local\.md$/;

/** Rule files in `dirs`, kept current: `current()` reads what changed since the last call and
 *  returns every rule; `fresh` lists the broken ones found (or changed) by that call. */
export class RuleSet {
  private readonly cache = new Map<string, { stamp: string; loaded: Loaded }>();

  /** `projectDirs`: those of `dirs` that are the project's own (their patterns are held to more). */
  constructor(
    private readonly dirs: readonly string[],
    private readonly projectDirs: ReadonlySet<string> = new Set(),
  ) {}

  current(): { rules: Loaded[]; fresh: Broken[] } {
    const fresh: Broken[] = [];
    const seen = new Set<string>();
    for (const dir of this.dirs) {
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        continue; // no such folder (the common case): no rules from here
      }
      for (const n of names.filter((x) => RULE_FILE.test(x)).sort()) {
        const file = join(dir, n);
        let stamp: string;
        try {
          const st = statSync(file);
          if (!st.isFile()) continue;
          stamp = `${st.size}:${st.mtimeMs}`;
        } catch {
          continue; // removed between readdir and stat
        }
        seen.add(file);
        if (this.cache.get(file)?.stamp === stamp) continue;
        let loaded: Loaded;
        try {
          loaded = readRule(file, readFileSync(file, "utf8"), { fromProject: this.projectDirs.has(dir) });
        } catch (err) {
          loaded = { kind: "broken", name: n, file, line: 1, problem: `cannot read it (${(err as NodeJS.ErrnoException).code ?? String(err)})`, event: null, action: null, enabled: true };
        }
        this.cache.set(file, { stamp, loaded });
        if (loaded.kind === "broken") fresh.push(loaded);
      }
    }
    for (const f of [...this.cache.keys()]) if (!seen.has(f)) this.cache.delete(f);
    return { rules: [...this.cache.values()].map((c) => c.loaded), fresh };
  }
}
