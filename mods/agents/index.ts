// Built-in mod: subagents — the Task tool and Claude Code's agent files, unchanged (load.ts says
// where from; builtin.ts has general-purpose and explore). It registers through the same
// interface as any third-party plugin and starts agents the way any plugin can: it dispatches
// `agent.spawn`, which the host answers with an engine session of its own on the same chain
// (one depth limit for every spawner, the tools cut to the caller's, the same gate and person).
//
//   Task tool       `{"description", "prompt", "subagent_type"}` (Claude Code's parameters; rules
//                   and hooks naming `Agent` see it too): runs the subagent's turn and returns its
//                   final message. Read-only and concurrent as a call — what the subagent does
//                   passes the gate call by call — so several Task calls of one reply run at once.
//   context.system  the types, one line each, as a section of the cached prefix of sessions that
//                   have the Task tool (a change mid-session reaches the model as a tail note).
//   turn.start      problems of agent files found since the start, as notices of the turn.
//                   A tool an agent file lists that exists nowhere is warned about once, when
//                   the main session's prefix is built (context.system names every tool).
//   /agents         the types, where each comes from, its model and tools.

import { homedir } from "node:os";
import { toolNames, type HostFacts, type JsonObject, type Plugin, type PluginApi, type StreamEvent, type SystemSection, type ToolContext, type ToolOutput } from "../../src/contract/index.js";
import { findAgent, loadAgents, type Agent } from "./load.js";
import { startProblemLines } from "../../src/lib/start-problems.js";

const MAX_DESCRIPTION_CHARS = 300;

const plugin: Plugin = {
  id: "agents",
  description: "Subagents: the Task tool, agent files (.claude/agents, .deepcode/agents), /agents",
  register(api) {
    new AgentsMod(api).install();
  },
};

export default plugin;

class AgentsMod {
  private readonly said = new Set<string>();
  private readonly news: string[] = [];

  constructor(private readonly api: PluginApi) {}

  install(): void {
    const api = this.api;
    const dirs = api.contributed("agents").map((c) => c.dir);
    for (const line of startProblemLines(this.scan(false).problems, dirs, "agent", "/agents")) api.log.warn(line);
    api.tool({
      name: "Task",
      description:
        'Start a subagent on a task: it works on its own, in a context of its own, with the tools its type has, and returns its final message. The types are listed in the system prompt under "Subagents". Use it for searches and self-contained tasks that would fill your context; start several in one reply to run them in parallel. It does not see this conversation: the prompt must say everything it needs, and what to report back.',
      inputSchema: {
        type: "object",
        properties: {
          description: { type: "string", description: "The task in 3 to 5 words." },
          prompt: { type: "string", description: "The whole task for the subagent, and what it should report." },
          subagent_type: { type: "string", description: "The subagent type, as listed (general-purpose when none fits better)." },
        },
        required: ["description", "prompt", "subagent_type"],
      },
      readOnly: true,
      concurrent: true,
      // On demand (ToolSpec.onDemand ""): the index section below says how to call it and lists
      // the types, ~110 tokens in every request instead of ~350 for the definition and the list
      // (issue 41); a direct call by name works too, and hooks and rules see "Task" either way.
      onDemand: "",
      run: (input, ctx) => this.task(input as JsonObject, ctx),
    });
    api.on("context.system", async (e, next) => {
      const r = await next();
      if (!e.tools?.includes("Task")) return r;
      const agents = this.scan().agents;
      if (!e.agent) this.checkTools(agents, e.tools);
      return { sections: [...r.sections, indexSection(agents)] };
    });
    api.on("turn.start", async (_e, next) => {
      this.scan();
      const r = await next();
      const notices = this.news.splice(0);
      return notices.length ? { ...(r ?? {}), notices: [...(r?.notices ?? []), ...notices] } : r;
    });
    api.command({ name: "agents", description: "the subagent types (Task), where each comes from, its model and tools", run: (ctx) => ctx.print(this.listing()) });
  }

  /** Per agent, the tools its file names that this deepcode does not have (left out when it runs). */
  private readonly lacking = new Map<string, string[]>();

  /** Said once per agent file, at the main session's first look at its tools: a Claude Code
   *  tool name deepcode has no tool for is left out of what the subagent gets, never silently. */
  private checkTools(agents: readonly Agent[], tools: readonly string[]): void {
    const have = new Set(tools.flatMap((t) => toolNames(t)));
    const lines: string[] = [];
    for (const a of agents) {
      if (!a.tools || this.lacking.has(a.name)) continue;
      // MCP tools arrive when their servers connect; a subagent asking for one is not judged here.
      const missing = a.tools.filter((t) => !t.startsWith("mcp__") && !have.has(t));
      this.lacking.set(a.name, missing);
      if (missing.length) lines.push(`${a.name} (${missing.join(", ")})`);
    }
    // One line for all of them (they are read at every start); WebSearch says why it is missing.
    const search = lines.some((l) => /[(, ]WebSearch[,)]/.test(l)) ? " (WebSearch: deepcode has no search provider; a plugin or an MCP server can provide a tool by that name)" : "";
    if (lines.length) this.api.log.warn(`agent files name tools deepcode does not have; each runs without them: ${lines.join(", ")}${search}`);
  }

  private scan(tell = true): { agents: Agent[]; problems: string[] } {
    const r = loadAgents({ root: this.api.root, home: this.api.home, userHome: homedir(), plugins: this.api.contributed("agents"), trusted: this.api.trusted, models: servedModels(this.api.host), read: (f, o) => this.api.readOwnFile(f, o) });
    for (const p of r.problems) {
      if (this.said.has(p)) continue;
      this.said.add(p);
      if (tell) this.news.push(p);
    }
    return r;
  }

  private async task(input: JsonObject, ctx: ToolContext): Promise<ToolOutput> {
    const agents = this.scan().agents;
    // No default type: the permission gate judged the call by the type it names.
    const type = typeof input.subagent_type === "string" ? input.subagent_type.trim() : "";
    const agent = type ? findAgent(agents, type) : undefined;
    const description = String(input.description ?? "").trim() || "task";
    if (!agent) {
      return { content: `There is no subagent type '${type}'. Types: ${agents.map((a) => a.name).join(", ")}.`, isError: true, summary: `Task ${type}: no such type` };
    }
    const r = await this.api.dispatch({
      type: "agent.spawn",
      sessionId: ctx.sessionId,
      name: agent.name,
      task: description,
      prompt: String(input.prompt ?? ""),
      system: agent.body,
      ...(agent.tools ? { tools: agent.tools } : {}),
      ...(agent.disallowedTools.length ? { disallowedTools: agent.disallowedTools } : {}),
      ...(agent.readOnly ? { readOnly: true } : {}),
      ...(agent.agents ? { agents: agent.agents } : {}),
      model: agent.model,
      ...(agent.maxTurns ? { maxTurns: agent.maxTurns } : {}),
      callId: ctx.callId,
      signal: ctx.signal,
      onEvent: (ev) => progress(ev, agent.name, ctx),
    });
    const head = `Task ${agent.name}: ${description}`;
    if (r.refused) return { content: `The subagent was not started: ${r.refused}.`, isError: true, summary: `${head} — not started` };
    const meta = { agent: agent.name, sessionId: r.sessionId ?? "", stopReason: r.stopReason, steps: r.steps, costUsd: r.costUsd };
    const cost = `${r.steps} round${r.steps === 1 ? "" : "s"}, $${r.costUsd.toFixed(4)}`;
    if (r.stopReason !== "completed") {
      const said = r.text ? ` What it said last:\n\n${r.text}` : "";
      return { content: `The subagent stopped before it finished (${r.stopReason}${r.error ? `: ${r.error}` : ""}).${said}`, isError: true, summary: `${head} — ${r.stopReason} (${cost})`, meta };
    }
    return { content: r.text || "(the subagent finished without a final message)", summary: `${head} (${cost})`, meta };
  }

  private listing(): string {
    const { agents, problems } = this.scan(false);
    const width = Math.max(...agents.map((a) => a.name.length));
    const lines: string[] = [];
    for (const a of agents) {
      const tools = a.tools ? a.tools.join(", ") || "no tools" : a.readOnly ? "the caller's read-only tools" : "all of the caller's tools";
      const less = a.disallowedTools.length ? ` except ${a.disallowedTools.join(", ")}` : "";
      lines.push(`${a.name.padEnd(width)}  ${a.source}${a.scope === "project" || a.scope === "user" ? ` (${a.scope})` : ""} · model ${a.model} · ${tools}${less}`);
      lines.push(`${"".padEnd(width)}  ${oneLine(a.description, 100)}`);
      for (const n of a.notes) lines.push(`${"".padEnd(width)}  note: ${n}`);
      const missing = this.lacking.get(a.name);
      if (missing?.length) lines.push(`${"".padEnd(width)}  note: tools deepcode does not have, left out: ${missing.join(", ")}`);
    }
    for (const p of problems) lines.push(`! ${p}`);
    return lines.join("\n");
  }
}

/** The prefix's list of types: fixed text plus one line per type, sorted (stable across runs). */
function indexSection(agents: readonly Agent[]): SystemSection {
  const head =
    'Subagents (UseTool Task {description, prompt, subagent_type}) see only their prompt: say all they need and what to report. Each returns its final message; several run in parallel. Types:';
  return { id: "agents", text: [head, ...agents.map((a) => `- ${a.name}: ${oneLine(a.description, MAX_DESCRIPTION_CHARS)}`)].join("\n") };
}

/** The subagent's calls, shown on the Task call's line while it runs. */
function progress(ev: StreamEvent, name: string, ctx: ToolContext): void {
  if (ev.type !== "tool.start") return;
  const input = ev.input !== null && typeof ev.input === "object" && !Array.isArray(ev.input) ? (ev.input as JsonObject) : {};
  const what = [input.file_path, input.pattern, input.command, input.description].find((v) => typeof v === "string") as string | undefined;
  ctx.progress?.({ message: `${name}: ${ev.tool}${what ? ` ${oneLine(what, 60)}` : ""}` });
}

function oneLine(s: string, n: number): string {
  const l = s.replace(/\s+/g, " ").trim();
  return l.length > n ? `${l.slice(0, n - 1)}…` : l;
}

/** The model ids and tier names this host serves: its capability table, the session's model, and
 *  every tier and its model (settings `tiers` may name another provider's). Undefined (nothing
 *  checked) on a host that names no models. */
function servedModels(host: HostFacts): ReadonlySet<string> | undefined {
  if (host.models.length === 0) return undefined;
  return new Set([...host.models, host.model, ...Object.entries(host.tiers).flatMap(([name, t]) => [name, t.model])]);
}
