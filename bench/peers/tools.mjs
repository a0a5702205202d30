// Abstract actions → each agent's own tool calls, read from the `tools` the agent sends.
//
// An action is { do: "read" | "write" | "edit" | "run" | "search" | "glob", … }. The tool for
// each kind is found by name (Read/read/read_file, Edit/edit/edit_file, Bash/bash, Grep/grep,
// Glob/glob, Write/write/write_file), its parameters by their names in the schema (file_path,
// filePath, path; old_string, oldString, oldText or an `edits` array; …). Paths are written as
// the tool's own description asks: absolute where it says "absolute", else relative to the
// project. An agent without a search or glob tool gets the shell equivalent through its run tool,
// as a model would write it. Every result is also classified back into a kind, so the report
// can tell where tool-result tokens go.
import { isAbsolute, join } from "node:path";

const NAMES = {
  read: /^(read|read_?file|view|cat)$/i,
  write: /^(write|write_?file|create_?file)$/i,
  edit: /^(edit|edit_?file|str_?replace|replace)$/i,
  run: /^(bash|shell|run_?command|exec|execute)$/i,
  search: /^(grep|search|search_?content|rg)$/i,
  glob: /^(glob|find_?files|find)$/i,
};

/** The kind of a tool name, or "other" (todo, task, skill, …). */
export function kindOf(name) {
  for (const [kind, re] of Object.entries(NAMES)) if (re.test(String(name))) return kind;
  return "other";
}

const pick = (props, re) => Object.keys(props).find((k) => re.test(k));

/** What the agent offers: per kind, the tool's name and its parameter names. */
export function toolbox(tools = []) {
  const box = {};
  for (const t of tools) {
    const fn = t.function ?? t;
    const kind = kindOf(fn.name);
    if (kind === "other" || box[kind]) continue;
    const props = fn.parameters?.properties ?? {};
    const pathKey = pick(props, /^(file_?path|filePath|path|absolute_?path)$/i);
    const pathDoc = `${fn.description ?? ""} ${pathKey ? props[pathKey]?.description ?? "" : ""}`;
    const edits = props.edits?.items?.properties;
    box[kind] = {
      name: fn.name,
      props,
      path: pathKey,
      absolute: /absolute/i.test(pathDoc) && !/relative/i.test(pathDoc),
      old: pick(props, /^(old_?string|oldString|old_?text|oldText|search)$/i),
      new: pick(props, /^(new_?string|newString|new_?text|newText|replace(ment)?)$/i),
      edits: edits ? { key: "edits", old: pick(edits, /old/i), new: pick(edits, /new/i) } : null,
      content: pick(props, /^(content|text|file_?text)$/i),
      command: pick(props, /^(command|cmd)$/i),
      pattern: pick(props, /^(pattern|query|regex)$/i),
      offset: pick(props, /^(offset|start_?line)$/i),
      limit: pick(props, /^(limit|max_?lines|line_?count)$/i),
      description: props.description ? "description" : null,
    };
  }
  return box;
}

const quote = (s) => `'${String(s).replace(/'/g, `'\\''`)}'`;

/**
 * The tool call for `action` in this agent's vocabulary: { name, arguments }.
 * Throws when the agent offers nothing that can do it (the report names the agent and action).
 */
export function callFor(action, box, root) {
  const at = (tool, p) => (tool.absolute && !isAbsolute(p) ? join(root, p) : p);
  const args = {};
  switch (action.do) {
    case "read": {
      const t = need(box, "read", action);
      args[t.path] = at(t, action.path);
      if (action.offset !== undefined && t.offset) args[t.offset] = action.offset;
      if (action.limit !== undefined && t.limit) args[t.limit] = action.limit;
      return { name: t.name, arguments: args };
    }
    case "write": {
      const t = need(box, "write", action);
      args[t.path] = at(t, action.path);
      args[t.content] = action.content;
      return { name: t.name, arguments: args };
    }
    case "edit": {
      const t = need(box, "edit", action);
      args[t.path] = at(t, action.path);
      if (t.old && t.new) {
        args[t.old] = action.old;
        args[t.new] = action.new;
      } else if (t.edits) args.edits = [{ [t.edits.old]: action.old, [t.edits.new]: action.new }];
      else throw new Error(`tool ${t.name} has no old/new text parameters`);
      return { name: t.name, arguments: args };
    }
    case "run":
      return runCall(box, action.command, action.why ?? "Run a command", action);
    case "search": {
      const t = box.search;
      if (!t) return runCall(box, `grep -rnE ${quote(action.pattern)} ${action.path ?? "."}`, "Search the code", action);
      args[t.pattern] = action.pattern;
      if (action.path && t.path) args[t.path] = at(t, action.path);
      // As a model asks for matching lines: content with line numbers, where the tool has modes.
      if (t.props.output_mode) args.output_mode = "content";
      if (t.props["-n"]) args["-n"] = true;
      return { name: t.name, arguments: args };
    }
    case "glob": {
      const t = box.glob;
      if (!t) return runCall(box, `find ${action.path ?? "."} -path ${quote(`./${action.pattern.replace(/\*\*\//g, "*")}`)} -type f`, "List files", action);
      args[t.pattern] = action.pattern;
      return { name: t.name, arguments: args };
    }
    default:
      throw new Error(`unknown action ${action.do}`);
  }
}

function runCall(box, command, why, action) {
  const t = need(box, "run", action);
  const args = { [t.command]: command };
  if (t.description) args.description = why;
  return { name: t.name, arguments: args };
}

function need(box, kind, action) {
  const t = box[kind];
  if (!t) throw new Error(`the agent offers no ${kind} tool (for ${JSON.stringify(action)}); it has ${Object.values(box).map((x) => x.name).join(", ")}`);
  return t;
}

/** Whether a call the agent sent back is the call for `action` (same tool, same key argument). */
export function sameCall(call, action, box, root) {
  let want;
  try {
    want = callFor(action, box, root);
  } catch {
    return false; // the agent cannot do this action at all: nothing it sent can be it
  }
  if (call.name !== want.name) return false;
  const got = call.arguments;
  for (const [k, v] of Object.entries(want.arguments)) {
    if (k === "description") continue;
    if (JSON.stringify(got?.[k]) !== JSON.stringify(v)) return false;
  }
  return true;
}
