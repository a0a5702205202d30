import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { chats, deepcode, isSubagent, task, type Plan, projects } from "./helpers.js";

const p = projects();

/** An agent that delegates its task to another of its kind, then reports what came back. */
const NESTER = "---\nname: nester\ndescription: passes the task down\n---\nYou are the NESTER-AGENT.\n";
const nesting: Plan = {
  main: [{ tool_calls: [task("nester", "go down", "Pass it on.")] }, { content: "top done" }],
  agents: [{ marker: "NESTER-AGENT", steps: [{ tool_calls: [task("nester", "go down", "Pass it on.")] }, { content: "level done" }] }],
};

describe("subagents nest at most three deep", () => {
  it("refuses the Task at depth 4, and says why to the agent that asked", async () => {
    await p.open(nesting, { ".claude/agents/nester.md": NESTER });
    const r = await deepcode(p.env, ["-p", "go", "--output-format", "json"]);
    expect(r.code).toBe(0);
    const sub = chats(p.sim.requests).filter((c) => isSubagent(c.json));
    // Three levels ran (two requests each); the third level's Task came back refused.
    expect(sub).toHaveLength(6);
    const refusals = sub.map((c) => c.json.messages.at(-1)).filter((m) => m.role === "tool" && /not started: subagents nest at most 3 deep/.test(m.content));
    expect(refusals).toHaveLength(1);
    const lines = readFileSync(join(p.env.home, "usage.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { agent?: string; session: string });
    expect(new Set(lines.map((l) => l.session)).size).toBe(1); // every level booked to the main session
    expect(lines.filter((l) => l.agent === "nester")).toHaveLength(6);
  });

  it("nests no deeper than settings subagents.maxDepth allows", async () => {
    await p.open(nesting, { ".claude/agents/nester.md": NESTER, ".deepcode/settings.json": JSON.stringify({ subagents: { maxDepth: 1 } }) });
    const r = await deepcode(p.env, ["-p", "go", "--output-format", "json", "--trust-project"]);
    expect(r.code).toBe(0);
    const sub = chats(p.sim.requests).filter((c) => isSubagent(c.json));
    expect(sub).toHaveLength(2);
    expect(sub[1].json.messages.at(-1).content).toMatch(/nest at most 1 deep/);
  });
});

describe("subagent transcripts", () => {
  it("are saved beside the parent's (0600), linked from it, kept across -c, and listed nested by deepcode sessions", async () => {
    const reader = "---\nname: reader\ndescription: reads\ntools: Read\n---\nYou are the READER-AGENT.\n";
    await p.open(
      {
        main: { "first look": [{ tool_calls: [task("reader", "first read", "Read it.")] }, { content: "first done" }], "second look": [{ tool_calls: [task("reader", "second read", "Read it again.")] }, { content: "second done" }] },
        agents: [{ marker: "READER-AGENT", steps: [{ content: "read it" }] }],
      },
      { ".claude/agents/reader.md": reader },
    );
    const one = await deepcode(p.env, ["-p", "first look", "--output-format", "json"]);
    const id = (JSON.parse(one.stdout) as { session_id: string }).session_id;
    const two = await deepcode(p.env, ["-c", "-p", "second look", "--output-format", "json"]);
    expect((JSON.parse(two.stdout) as { session_id: string }).session_id).toBe(id);
    const project = readdirSync(join(p.env.home, "sessions"))[0];
    const dir = join(p.env.home, "sessions", project);
    const children = readdirSync(join(dir, id)).filter((f) => f.endsWith(".jsonl"));
    expect(children).toHaveLength(2);
    for (const f of children) expect(statSync(join(dir, id, f)).mode & 0o777).toBe(0o600);
    const parent = readFileSync(join(dir, `${id}.jsonl`), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { t: string; name?: string; task?: string; file?: string });
    const links = parent.filter((r) => r.t === "agent");
    expect(links.map((l) => l.task)).toEqual(["first read", "second read"]);
    for (const l of links) expect(children).toContain(l.file!.split("/").pop());
    const child = readFileSync(join(dir, id, children[0]), "utf8").split("\n")[0];
    expect(JSON.parse(child)).toMatchObject({ t: "session", agent: { name: "reader", parentSessionId: id, depth: 1 } });
    const list = await deepcode(p.env, ["sessions"]);
    expect(list.stdout).toMatch(new RegExp(`^${id} .*first look\\n  └ reader: first read  \\$\\d+\\.\\d{4}  \\S+\\n  └ reader: second read`, "m"));
    // -c picks the main session, never a subagent's.
    expect(list.stdout.match(/^\d{8}-/gm)).toHaveLength(1);
  });
});
