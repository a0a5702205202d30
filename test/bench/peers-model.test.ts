// The peers benchmark's scripted model (bench/peers/), without any peer installed: it maps the
// same action onto each agent's own tool vocabulary, and it decides its next step from what the
// conversation holds, not from how many requests came before — so an agent that sends a title
// request, or compacts, or resumes in a new process, still gets the same work.
import { describe, expect, it } from "vitest";

type Call = { name: string; arguments: Record<string, unknown> };
type Reply = { reply: { content?: string; tool_calls: Call[] }; info: { kind: string } };
interface Model {
  respond(chat: unknown): Reply;
  finals: Set<string>;
}
// Plain ESM benchmark modules (no types), loaded as bench/cache.mjs is in cache-fast.test.ts.
const { callFor, toolbox } = (await import(new URL("../../bench/peers/tools.mjs", import.meta.url).href)) as {
  callFor(action: object, box: unknown, root: string): Call;
  toolbox(tools: unknown[]): unknown;
};
const { createModel } = (await import(new URL("../../bench/peers/model.mjs", import.meta.url).href)) as {
  createModel(session: unknown, o: { root: () => string }): Model;
};

const fn = (name: string, properties: Record<string, unknown>, description = "") => ({ type: "function", function: { name, description, parameters: { type: "object", properties } } });
const str = (description = "") => ({ type: "string", description });

const DEEPCODE = [fn("Read", { file_path: str(), offset: {}, limit: {} }), fn("Edit", { file_path: str(), old_string: str(), new_string: str() }), fn("Bash", { command: str(), description: str() }), fn("Grep", { pattern: str(), path: str(), output_mode: str(), "-n": {} })];
const PI = [fn("read", { path: str("Path to the file to read (relative or absolute)"), offset: {}, limit: {} }), fn("edit", { path: str(), edits: { type: "array", items: { type: "object", properties: { oldText: str(), newText: str() } } } }), fn("bash", { command: str() })];
const OPENCODE = [fn("read", { filePath: str("The absolute path to the file to read"), offset: {}, limit: {} }), fn("edit", { filePath: str("The absolute path to the file to modify"), oldString: str(), newString: str() }), fn("grep", { pattern: str(), path: str() })];
const REASONIX = [fn("read_file", { path: str(), offset: {}, limit: {} }), fn("edit_file", { path: str(), old_string: str(), new_string: str() }), fn("bash", { command: str() })];

describe("the peers benchmark maps one action onto every agent's tools", () => {
  const edit = { do: "edit", path: "src/a.js", old: "x = 1", new: "x = 2" };

  it("writes an edit in each agent's own parameter names, with absolute paths where the tool asks for them", () => {
    expect(callFor(edit, toolbox(DEEPCODE), "/r")).toEqual({ name: "Edit", arguments: { file_path: "src/a.js", old_string: "x = 1", new_string: "x = 2" } });
    expect(callFor(edit, toolbox(PI), "/r")).toEqual({ name: "edit", arguments: { path: "src/a.js", edits: [{ oldText: "x = 1", newText: "x = 2" }] } });
    expect(callFor(edit, toolbox(OPENCODE), "/r")).toEqual({ name: "edit", arguments: { filePath: "/r/src/a.js", oldString: "x = 1", newString: "x = 2" } });
    expect(callFor(edit, toolbox(REASONIX), "/r")).toEqual({ name: "edit_file", arguments: { path: "src/a.js", old_string: "x = 1", new_string: "x = 2" } });
  });

  it("searches with the agent's grep tool in content mode, or through its shell when it has none", () => {
    const search = { do: "search", pattern: "legacyFlag\\(", path: "packages" };
    expect(callFor(search, toolbox(DEEPCODE), "/r")).toEqual({ name: "Grep", arguments: { pattern: "legacyFlag\\(", path: "packages", output_mode: "content", "-n": true } });
    expect(callFor(search, toolbox(PI), "/r")).toEqual({ name: "bash", arguments: { command: "grep -rnE 'legacyFlag\\(' packages" } });
  });
});

describe("the peers benchmark's model decides from content, not from request counts", () => {
  const session = {
    tasks: [
      {
        id: "t1",
        prompt: "Change x in src/a.js to 2.",
        steps: [
          { think: "Read it.", actions: [{ do: "read", path: "src/a.js" }] },
          { think: "Edit it.", actions: [{ do: "edit", path: "src/a.js", old: "x = 1", new: "x = 2" }] },
        ],
        final: () => "Done.",
        check: () => null,
      },
    ],
  };
  const chat = (messages: unknown[]) => ({ model: "deepseek-flash", tools: PI, messages: [{ role: "system", content: "You are pi." }, ...messages] });
  const call = (id: string, name: string, args: unknown) => ({ role: "assistant", content: "", reasoning_content: "r", tool_calls: [{ id, type: "function", function: { name, arguments: JSON.stringify(args) } }] });

  it("takes the next step after the calls the agent sent back, whatever else came in between", () => {
    const model = createModel(session, { root: () => "/r" });
    const first = model.respond(chat([{ role: "user", content: "Change x in src/a.js to 2." }]));
    expect(first.reply.tool_calls).toEqual([{ name: "read", arguments: { path: "src/a.js" } }]);
    const after = chat([
      { role: "user", content: "Change x in src/a.js to 2." },
      call("c1", "read", { path: "src/a.js" }),
      { role: "tool", tool_call_id: "c1", content: "x = 1" },
    ]);
    expect(model.respond(after).reply.tool_calls[0].name).toBe("edit");
    // The same request again (a retry, a second process): the same answer.
    expect(model.respond(after).reply.tool_calls[0].name).toBe("edit");
  });

  it("tries a failed edit again and answers once it went through", () => {
    const model = createModel(session, { root: () => "/r" });
    const base = [{ role: "user", content: "Change x in src/a.js to 2." }, call("c1", "read", { path: "src/a.js" }), { role: "tool", tool_call_id: "c1", content: "x = 1" }];
    const editCall = call("c2", "edit", { path: "src/a.js", edits: [{ oldText: "x = 1", newText: "x = 2" }] });
    const failed = model.respond(chat([...base, editCall, { role: "tool", tool_call_id: "c2", content: "Error: could not find the text" }]));
    expect(failed.reply.tool_calls[0].name).toBe("edit");
    const done = model.respond(chat([...base, editCall, { role: "tool", tool_call_id: "c2", content: "Successfully replaced text." }]));
    expect(done.reply.content).toBe("Done.");
    expect(model.finals.has("t1")).toBe(true);
  });

  it("answers a compaction request with a summary that carries the task and its progress, and goes on from it", () => {
    const model = createModel(session, { root: () => "/r" });
    model.respond(chat([{ role: "user", content: "Change x in src/a.js to 2." }]));
    const summary = model.respond({ model: "deepseek-flash", messages: [{ role: "system", content: "You summarise." }, { role: "user", content: "[User]: Change x in src/a.js to 2.\n\nWrite a checkpoint summary of the conversation." }] });
    expect(summary.info.kind).toBe("summary");
    expect(summary.reply.content).toContain("Change x in src/a.js to 2.");
    expect(summary.reply.content).toContain("[bench-progress t1 1]");
    const next = model.respond(chat([{ role: "user", content: `The conversation was compacted:\n${summary.reply.content}` }]));
    expect(next.reply.tool_calls[0].name).toBe("edit");
  });
});

describe("the peers benchmark's model reads again what an agent lost before it uses it", () => {
  const fact = "Decision 7: keep the ledger format.";
  const session = {
    tasks: [
      {
        id: "t1",
        prompt: "Record the decision of notes/a.md in notes/D.md.",
        steps: [
          { think: "Read the note.", actions: [{ do: "read", path: "notes/a.md" }] },
          { think: "Record it.", use: [{ text: fact, from: { do: "read", path: "notes/a.md" } }], actions: [{ do: "edit", path: "notes/D.md", old: "<!-- -->", new: `${fact}\n<!-- -->` }] },
        ],
        final: () => "Recorded.",
        check: () => null,
      },
    ],
  };
  const chat = (messages: unknown[]) => ({ model: "deepseek-flash", tools: PI, messages: [{ role: "system", content: "You are pi." }, ...messages] });
  const summaryOf = (model: Model, text: string) =>
    (model.respond({ model: "deepseek-flash", messages: [{ role: "system", content: "You summarise." }, { role: "user", content: `${text}\n\nWrite a checkpoint summary of the conversation.` }] }).reply.content ?? "");
  const prompt = session.tasks[0].prompt;
  const readCall = { role: "assistant", content: "", reasoning_content: "r", tool_calls: [{ id: "c1", type: "function", function: { name: "read", arguments: JSON.stringify({ path: "notes/a.md" }) } }] };

  it("goes on to the edit when the summary carried the fact", () => {
    const model = createModel(session, { root: () => "/r" });
    model.respond(chat([{ role: "user", content: prompt }]));
    const summary = summaryOf(model, `[User]: ${prompt}\n[Tool read]: ...${fact}...`);
    expect(summary).toContain(fact);
    const next = model.respond(chat([{ role: "user", content: `The conversation was compacted:\n${summary}` }]));
    expect(next.reply.tool_calls[0].name).toBe("edit");
  });

  it("reads the note again when a compaction left the fact behind, then edits", () => {
    const model = createModel(session, { root: () => "/r" });
    model.respond(chat([{ role: "user", content: prompt }]));
    // The summary request never held the note's text (the agent pruned it first).
    const summary = summaryOf(model, `[User]: ${prompt}\n[Tool read]: [output cleared]`);
    expect(summary).not.toContain(fact);
    const lostIt = chat([{ role: "user", content: `The conversation was compacted:\n${summary}` }]);
    const again = model.respond(lostIt);
    expect(again.reply.tool_calls).toEqual([{ name: "read", arguments: { path: "notes/a.md" } }]);
    const back = model.respond(chat([{ role: "user", content: `The conversation was compacted:\n${summary}` }, readCall, { role: "tool", tool_call_id: "c1", content: `# a\n${fact}\n` }]));
    expect(back.reply.tool_calls[0].name).toBe("edit");
    expect((model as unknown as { relearned(t: unknown): { reread: number; lost: string[] } }).relearned(session.tasks[0])).toEqual({ reread: 1, lost: [] });
  });
});
