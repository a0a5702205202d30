import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { call, chats, deepcode, isSubagent, ledger, task, toolNamesOf, type Plan, projects } from "./helpers.js";

const p = projects();

const READER = "---\nname: reader\ndescription: Reads files and reports what they say\ntools: Read, Grep\n---\nYou are the READER-AGENT. Read what you are asked to and quote it.\n";

describe("a subagent from .claude/agents, run by the Task tool in -p", () => {
  it("has only the tools its file lists, cannot Edit, carries AGENTS.md, and its answer reaches the parent", async () => {
    await p.open(
      {
        main: [{ tool_calls: [task("reader", "read a.txt", "Read a.txt and tell me what it says.")] }, { content: "The reader says a.txt holds hello." }],
        agents: [{ marker: "READER-AGENT", steps: [call("Edit", { file_path: "a.txt", old_string: "hello", new_string: "bye" }), call("Read", { file_path: "a.txt" }), { content: "a.txt says: hello" }] }],
      },
      { ".claude/agents/reader.md": READER, "a.txt": "hello\n", "AGENTS.md": "Always answer in English. PROJECT-RULE-42.\n" },
    );
    const r = await deepcode(p.env, ["-p", "what does a.txt say? use the reader", "--output-format", "json"]);
    expect(r.stderr).not.toMatch(/did not load/);
    expect(r.code).toBe(0);
    const all = chats(p.sim.requests);
    const sub = all.filter((c) => isSubagent(c.json));
    expect(sub.length).toBe(3);
    expect(toolNamesOf(sub[0].json)).toEqual(["Read", "Grep", "UseTool"]);
    expect(sub[0].json.messages[0].content).toContain("PROJECT-RULE-42");
    expect(sub[0].json.messages[0].content).toContain("READER-AGENT");
    const editResult = sub[1].json.messages.at(-1);
    expect(editResult).toMatchObject({ role: "tool" });
    expect(editResult.content).toMatch(/Unknown tool 'Edit'/);
    expect(readFileSync(join(p.env.root, "a.txt"), "utf8")).toBe("hello\n");
    const mainLast = all.filter((c) => !isSubagent(c.json)).at(-1)!.json;
    expect(mainLast.messages.at(-1)).toMatchObject({ role: "tool", content: "a.txt says: hello" });
    const result = JSON.parse(r.stdout) as { total_cost_usd: number; result: string };
    expect(result.result).toBe("The reader says a.txt holds hello.");
    const lines = ledger(p.env);
    expect(lines.filter((l) => l.agent === "reader")).toHaveLength(3);
    expect(result.total_cost_usd).toBeCloseTo(lines.reduce((a, l) => a + (l.usd as number), 0), 8);
  });
});

describe("rules and hooks written for Task or for Agent both see the Task tool", () => {
  const two = { tool_calls: [task("reader", "read", "Read a.txt."), task("explore", "look", "Look around.")] };
  const plan: Plan = {
    main: [two, { content: "done" }],
    agents: [
      { marker: "READER-AGENT", steps: [{ content: "reader ran" }] },
      { marker: "You are an exploring agent", steps: [{ content: "explore ran" }] },
    ],
  };

  it("denies the agent type an Agent(name) deny rule names, and no other", async () => {
    await p.open(plan, { ".claude/agents/reader.md": READER, "a.txt": "x", ".deepcode/settings.json": JSON.stringify({ permissions: { deny: ["Agent(reader)"] } }) });
    const r = await deepcode(p.env, ["-p", "go", "--output-format", "json"]);
    expect(r.code).toBe(0);
    const last = chats(p.sim.requests).filter((c) => !isSubagent(c.json)).at(-1)!.json;
    const results = last.messages.filter((m: { role: string }) => m.role === "tool").map((m: { content: string }) => m.content);
    expect(results[0]).toMatch(/^Permission denied for Task: .*Agent\(reader\)/);
    expect(results[1]).toBe("explore ran");
    expect(chats(p.sim.requests).filter((c) => isSubagent(c.json))).toHaveLength(1);
  });

  it("denies the type however the model spells it (case, spaces), as the Task tool reads it, and runs no default", async () => {
    await p.open(
      { main: [{ tool_calls: [task(" Reader ", "read", "Read a.txt."), task("", "anything", "Do it.")] }, { content: "done" }], agents: [{ marker: "READER-AGENT", steps: [{ content: "reader ran" }] }] },
      { ".claude/agents/reader.md": READER, ".deepcode/settings.json": JSON.stringify({ permissions: { deny: ["Agent(reader)"] } }) },
    );
    await deepcode(p.env, ["-p", "go"]);
    expect(chats(p.sim.requests).filter((c) => isSubagent(c.json))).toHaveLength(0);
    const results = chats(p.sim.requests).at(-1)!.json.messages.filter((m: { role: string }) => m.role === "tool").map((m: { content: string }) => m.content);
    expect(results[0]).toMatch(/^Permission denied for Task/);
    expect(results[1]).toMatch(/^There is no subagent type ''/);
  });

  it("denies every Task call under a bare Task deny rule", async () => {
    await p.open(plan, { ".claude/agents/reader.md": READER, ".deepcode/settings.json": JSON.stringify({ permissions: { deny: ["Task"] } }) });
    await deepcode(p.env, ["-p", "go"]);
    expect(chats(p.sim.requests).filter((c) => isSubagent(c.json))).toHaveLength(0);
  });

  it("runs a PreToolUse hook whose matcher says Agent, and its deny stands", async () => {
    // Two Task calls run in parallel: each hook run writes a file of its own (mktemp), so two
    // runs cannot interleave their writes.
    const hooks = { PreToolUse: [{ matcher: "Agent", hooks: [{ type: "command", command: "cat > \"$(mktemp seen.XXXXXX)\"; echo 'no subagents today' >&2; exit 2" }] }] };
    await p.open(plan, { ".claude/agents/reader.md": READER, ".deepcode/settings.json": JSON.stringify({ hooks }) });
    const r = await deepcode(p.env, ["-p", "go", "--trust-project"]);
    expect(r.code).toBe(0);
    expect(chats(p.sim.requests).filter((c) => isSubagent(c.json))).toHaveLength(0);
    const files = readdirSync(p.env.root).filter((f) => f.startsWith("seen."));
    expect(files).toHaveLength(2);
    const seen = JSON.parse(readFileSync(join(p.env.root, files[0]), "utf8")) as { tool_name: string; tool_input: Record<string, string> };
    expect(seen.tool_name).toBe("Task");
    expect(seen.tool_input.subagent_type).toMatch(/reader|explore/);
    const last = chats(p.sim.requests).at(-1)!.json;
    expect(last.messages.at(-1).content).toMatch(/no subagents today/);
  });
});

describe("Stop hooks and subagents", () => {
  it("run SubagentStop hooks when a subagent's turn ends, and Stop hooks only for the main agent's", async () => {
    const hooks = {
      Stop: [{ hooks: [{ type: "command", command: "cat >> stops.jsonl; echo >> stops.jsonl" }] }],
      SubagentStop: [{ hooks: [{ type: "command", command: "cat >> substops.jsonl; echo >> substops.jsonl" }] }],
    };
    await p.open(
      { main: [{ tool_calls: [task("reader", "read", "Read a.txt.")] }, { content: "done" }], agents: [{ marker: "READER-AGENT", steps: [{ content: "read it" }] }] },
      { ".claude/agents/reader.md": READER, "a.txt": "x", ".deepcode/settings.json": JSON.stringify({ hooks }) },
    );
    await deepcode(p.env, ["-p", "go", "--trust-project"]);
    const rows = (f: string) => readFileSync(join(p.env.root, f), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows("stops.jsonl").map((r) => r.last_assistant_message)).toEqual(["done"]);
    expect(rows("substops.jsonl")).toMatchObject([{ hook_event_name: "SubagentStop", agent_type: "reader", last_assistant_message: "read it" }]);
  });

  it("give a subagent's hooks the path of its own transcript, which exists", async () => {
    const hooks = { PreToolUse: [{ matcher: "Read", hooks: [{ type: "command", command: "cat >> reads.jsonl; echo >> reads.jsonl" }] }] };
    await p.open(
      { main: [{ tool_calls: [task("reader", "read", "Read a.txt.")] }, { content: "done" }], agents: [{ marker: "READER-AGENT", steps: [call("Read", { file_path: "a.txt" }), { content: "read it" }] }] },
      { ".claude/agents/reader.md": READER, "a.txt": "x", ".deepcode/settings.json": JSON.stringify({ hooks }) },
    );
    await deepcode(p.env, ["-p", "go", "--trust-project"]);
    const [seen] = readFileSync(join(p.env.root, "reads.jsonl"), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as { session_id: string; transcript_path: string });
    // Claude Code's format (mods/hooks/transcript.ts): the subagent's own conversation, a sidechain.
    expect(seen.transcript_path.endsWith(`/claude-code/${seen.session_id}.jsonl`)).toBe(true);
    const first = JSON.parse(readFileSync(seen.transcript_path, "utf8").split("\n")[0]) as Record<string, unknown>;
    expect(first).toMatchObject({ type: "user", isSidechain: true, sessionId: seen.session_id });
  });
});
