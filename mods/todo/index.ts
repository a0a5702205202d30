// Built-in mod: todo — Claude Code's TodoWrite, the model's checklist for a multi-step task.
//
//   TodoWrite  `{"todos": [{"content", "status": "pending"|"in_progress"|"completed", "activeForm"}]}`,
//              the whole list each time (Claude Code's shape, so agent files, hooks and stream-json
//              readers that know it carry over). On demand (ToolSpec.onDemand): one line in the
//              prefix, called through UseTool. An ordinary tool call: its result enters the log
//              like any other (the prefix never changes for it), and `-p --output-format
//              stream-json` carries it as a tool_use / tool_result pair, as Claude Code does.
//              The REPL shows the list under the call's line (ToolOutput.display) only when it
//              differs from the last one shown for that session: a model that re-sends the same
//              list gets one quiet line.
//   /todos     the current list of the session.
//
// State is per session (keyed by sessionId: a subagent keeps its own list) and in memory only:
// the list lives in the log, where the model reads it back.
// Settings `pluginConfig.todo.tool: false` leaves the tool out.

import type { JsonObject, Plugin, PluginApi, ToolOutput } from "../../src/contract/index.js";

const STATUSES = ["pending", "in_progress", "completed"] as const;
type Status = (typeof STATUSES)[number];
interface Todo {
  content: string;
  status: Status;
  activeForm: string;
}

const MAX_SESSIONS = 200;

const plugin: Plugin = {
  id: "todo",
  description: "TodoWrite: the model's checklist for a multi-step task, shown in the REPL as it changes; /todos",
  register(api) {
    if (api.config.tool === false) return;
    new TodoMod(api).install();
  },
};

export default plugin;

class TodoMod {
  /** The list last written per session (a Map keeps insertion order: the oldest goes first). */
  private readonly lists = new Map<string, Todo[]>();

  constructor(private readonly api: PluginApi) {}

  install(): void {
    this.api.tool({
      name: "TodoWrite",
      description: "Your checklist for a task of several steps, shown to the user. Send the whole list each time; one step in_progress at a time, completed as soon as done.",
      inputSchema: {
        type: "object",
        properties: {
          todos: {
            type: "array",
            items: {
              type: "object",
              properties: {
                content: { type: "string" },
                status: { type: "string", enum: [...STATUSES] },
                activeForm: { type: "string", description: "e.g. 'Running tests'" },
              },
              required: ["content", "status", "activeForm"],
            },
          },
        },
        required: ["todos"],
      },
      readOnly: true,
      // On demand: one line in the prefix instead of the whole schema (a session that never keeps
      // a checklist pays 28 tokens, not 137); a direct call by name works too, and tool.start / tool.end name TodoWrite either way.
      onDemand: "{todos: [{content, status, activeForm}]}: your checklist for a multi-step task, shown to the user",
      run: async (input, ctx) => this.write(input as JsonObject, ctx.sessionId),
    });
    this.api.command({
      name: "todos",
      description: "the model's current checklist (TodoWrite)",
      run: (ctx) => {
        const list = this.lists.get(ctx.sessionId);
        ctx.print(list && list.length > 0 ? checklist(list) : "No checklist in this session yet.");
      },
    });
  }

  private write(input: JsonObject, sessionId: string): ToolOutput {
    const todos = (Array.isArray(input.todos) ? input.todos : []).map((t) => t as JsonObject).map((t): Todo => ({
      content: String(t.content ?? "").trim(),
      status: STATUSES.includes(t.status as Status) ? (t.status as Status) : "pending",
      activeForm: String(t.activeForm ?? "").trim(),
    }));
    const empty = todos.findIndex((t) => t.content === "");
    if (empty >= 0) return { content: `todos[${empty}].content is empty: every step needs its text. Send the whole list again.`, isError: true, summary: "TodoWrite: an empty step" };
    const before = this.lists.get(sessionId);
    const same = before !== undefined && JSON.stringify(before) === JSON.stringify(todos);
    this.lists.delete(sessionId);
    this.lists.set(sessionId, todos);
    if (this.lists.size > MAX_SESSIONS) this.lists.delete(this.lists.keys().next().value as string);

    const count = (s: Status): number => todos.filter((t) => t.status === s).length;
    const done = count("completed");
    const running = todos.filter((t) => t.status === "in_progress");
    const figures = `${done}/${todos.length} done`;
    const now = running.length > 0 ? ` · ${running.map((t) => t.activeForm || t.content).join("; ")}` : "";
    const several = running.length > 1 ? " Several steps are in_progress: keep one at a time." : "";
    return {
      content: `Checklist saved: ${todos.length} step${todos.length === 1 ? "" : "s"}, ${done} completed, ${running.length} in progress, ${count("pending")} pending.${several} Keep it current as you work.`,
      summary: same ? `Todos unchanged (${figures})` : `Todos ${figures}${now}`,
      meta: { todos: todos.map((t) => ({ ...t })), total: todos.length, completed: done },
      ...(same || todos.length === 0 ? {} : { display: checklist(todos) }),
    };
  }
}

/** The list as a person reads it: one line a step, its state as a mark. */
function checklist(todos: readonly Todo[]): string {
  const mark: Record<Status, string> = { completed: "✔", in_progress: "▶", pending: "☐" };
  return todos.map((t) => `${mark[t.status]} ${t.status === "in_progress" && t.activeForm ? t.activeForm : t.content}`).join("\n");
}
