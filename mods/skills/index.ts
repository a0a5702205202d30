// Built-in mod: skills — Claude Code's SKILL.md folders, unchanged (load.ts says where from).
// It registers through the same interface as any third-party plugin.
//
//   context.system  the index — one line per skill, name and description, sorted — as a section
//                   of the cached prefix, for sessions that have the Skill tool. A skill added,
//                   removed or re-described mid-session changes the section, which the engine
//                   turns into a tail note: the prefix does not change.
//   Skill tool      `{"skill": "<name>"}`: the body (bounded) and the files beside it, as the
//                   call's result; read fresh, so an edit is what the model gets.
//   context.tail    a skill this session loaded that changed on disk since: a note to load it again.
//   turn.start      problems of skill files found since the start, as notices of the turn.
//   turn.complete   the end of "in use": what the skill's `allowed-tools` allowed is taken back.
//   /skills, /<name>  list them; load one on the person's request, as Claude Code allows.
//
// `allowed-tools` while a skill is in use: from the moment it is loaded (the Skill call, or
// `/name`) until that session's turn completes, calls matching them run without asking, in that
// session only (a subagent it starts does not inherit them), through api.allow — so never
// against a deny, an ask rule or the managed policy. A project's skills get this only in a
// trusted project (workspace trust lists them), and only as they were when the session started
// (what the person trusted): a project skill added or whose `allowed-tools` changed since asks
// as usual until deepcode starts again and trust covers it. The person's own and plugins'
// always.

import { homedir } from "node:os";
import type { Plugin, PluginApi, SystemSection, ToolOutput, Unsubscribe } from "../../src/contract/index.js";
import { LIST, loadSkills, skillFiles, type Skill } from "./load.js";
import { startProblemLines } from "../../src/lib/start-problems.js";

/** A skill body longer than this is cut (with a note): it enters the log as a tool result. */
const MAX_BODY_CHARS = 40_000;
/** The index rides on every request: descriptions and the whole are bounded. */
const MAX_DESCRIPTION_CHARS = 300;
const MAX_INDEX_CHARS = 16_000;
/** Room kept for the index's last line, the one that says how to list what did not fit. */
const MORE_RESERVE = 200;

const plugin: Plugin = {
  id: "skills",
  description: "Skills (SKILL.md): an index in the prefix, the Skill tool, /skills and /<skill>",
  register(api) {
    new SkillsMod(api).install();
  },
};

export default plugin;

class SkillsMod {
  /** What each session's loaded skills allowed, until its turn completes. */
  private readonly grants = new Map<string, Unsubscribe[]>();
  /** The skills each session loaded, with the digest it got. */
  private readonly loaded = new Map<string, Map<string, string>>();
  private readonly commands = new Map<string, { skill: Skill; off: Unsubscribe }>();
  private readonly said = new Set<string>();
  private readonly news: string[] = [];

  constructor(private readonly api: PluginApi) {}

  /** The project's skills with allowed-tools as they were at start, in a trusted project:
   *  `file` → its allowed-tools (canonical). What trust covered, and nothing later. */
  private readonly trustedAtStart = new Map<string, string>();

  install(): void {
    const api = this.api;
    const found = this.scan(false);
    if (api.trusted) for (const s of found.skills) if (s.scope === "project" && s.allowedTools.length) this.trustedAtStart.set(s.file, grantKey(s));
    const dirs = api.contributed("skills").map((c) => c.dir);
    for (const line of startProblemLines(found.problems, dirs, "skill", "/skills")) api.log.warn(line);
    // The Skill tool only where there are skills: a project without any does not carry its
    // definition in every request. One that appears later (a skill written mid-session, a
    // plugin's folder) brings the tool with it, through UseTool and a tail note.
    if (found.skills.some((s) => s.modelInvocable)) this.addTool();
    api.on("context.system", async (e, next) => {
      const r = await next();
      if (!e.tools?.includes("Skill")) return r;
      const index = indexSection(this.scan().skills); // the prefix: at start, first request, /reload
      return index ? { sections: [...r.sections, index] } : r;
    });
    api.on("context.tail", async (e, next) => {
      const r = await next();
      const notes = this.changedSince(e.sessionId);
      return notes.length ? { notes: [...r.notes, ...notes] } : r;
    });
    api.on("turn.start", async (_e, next) => {
      // One look at the skill folders per turn, shared by its commands and its tail.
      this.turnScan = this.scan();
      this.syncCommands();
      const r = await next();
      const notices = this.news.splice(0);
      return notices.length ? { ...(r ?? {}), notices: [...(r?.notices ?? []), ...notices] } : r;
    });
    api.on("turn.complete", async (e, next) => {
      try {
        return await next();
      } finally {
        this.turnScan = undefined;
        this.release(e.sessionId);
      }
    });
    api.on("session.end", async (e, next) => {
      this.release(e.sessionId);
      this.loaded.delete(e.sessionId);
      return next();
    });
    api.command({ name: "skills", description: "the skills deepcode found, where from, and what they allow", print: true, run: (ctx) => ctx.print(this.listing()) });
    this.syncCommands();
  }

  private toolAdded = false;

  private addTool(): void {
    if (this.toolAdded) return;
    this.toolAdded = true;
    this.api.tool({
      name: "Skill",
      description:
        'Load a skill: its instructions and the list of files in its folder. Skills are listed in the system prompt under "Skills"; when a task matches one, load it first and follow it. Read the files it points to with Read.',
      inputSchema: {
        type: "object",
        properties: {
          skill: { type: "string", description: "The skill's name, as listed." },
          args: { type: "string", description: "Arguments for the skill, when it takes any." },
        },
        required: ["skill"],
      },
      readOnly: true,
      run: async (input, ctx) => this.call(String(input.skill ?? ""), typeof input.args === "string" ? input.args : "", ctx.sessionId),
    });
  }

  private turnScan?: { skills: Skill[]; problems: string[] };

  /** This turn's look at the skills (turn.start), or a fresh one between turns. */
  private current(): { skills: Skill[]; problems: string[] } {
    return this.turnScan ?? this.scan();
  }

  /** Every skill now; problems not reported before go to the next turn's notices. */
  private scan(tell = true): { skills: Skill[]; problems: string[] } {
    const r = loadSkills({ root: this.api.root, home: this.api.home, userHome: homedir(), plugins: this.api.contributed("skills"), read: (f, o) => this.api.readOwnFile(f, o) });
    for (const p of r.problems) {
      if (this.said.has(p)) continue;
      this.said.add(p);
      if (tell) this.news.push(p);
    }
    return r;
  }

  private call(asked: string, args: string, sessionId: string): ToolOutput {
    const name = asked.trim().replace(/^\//, "");
    const skills = this.scan().skills;
    if (name === LIST) return listAll(skills, args);
    const s = findSkill(skills, name);
    if (!s || !s.modelInvocable) {
      const known = skills.filter((x) => x.modelInvocable).map((x) => x.name);
      const why = s ? `The skill '${s.name}' is loaded only when the user asks for it (/${s.name}).` : `There is no skill '${name}'.`;
      return { content: `${why} Skills you can load: ${known.join(", ") || "none"}.`, isError: true, summary: `Skill ${name}: not loaded` };
    }
    return this.load(s, args, sessionId);
  }

  /** A skill put to use in a session: its text for the model, its allowed-tools granted. */
  private load(s: Skill, args: string, sessionId: string): ToolOutput {
    (this.loaded.get(sessionId) ?? this.loaded.set(sessionId, new Map()).get(sessionId)!).set(s.name, s.digest);
    const granted: string[] = [];
    const refused: string[] = [];
    const late = s.scope === "project" && this.api.trusted && s.allowedTools.length > 0 && this.trustedAtStart.get(s.file) !== grantKey(s);
    const trusted = s.scope !== "project" || (this.api.trusted && !late);
    if (s.allowedTools.length && trusted) {
      const mine = this.grants.get(sessionId) ?? this.grants.set(sessionId, []).get(sessionId)!;
      for (const rule of s.allowedTools) {
        try {
          mine.push(this.api.allow([rule], { sessionId }));
          granted.push(rule);
        } catch (err) {
          refused.push(`${rule} (${err instanceof Error ? err.message : String(err)})`);
        }
      }
    }
    const { files, more } = skillFiles(s.dir);
    const lines = [`Skill "${s.name}" — base directory: ${s.dir}`, "", bodyWith(s.body, args)];
    if (files.length) {
      lines.push("", "Files in this skill's folder (read them with Read when the instructions point to them):", ...files.map((f) => `- ${f}`));
      if (more) lines.push(`- … more files; list the folder with Glob`);
    }
    if (granted.length) lines.push("", `Until this turn ends these run without asking: ${granted.join(", ")}.`);
    if (refused.length) lines.push("", `allowed-tools not applied: ${refused.join("; ")}.`);
    if (late) lines.push("", `This skill's allowed-tools (${s.allowedTools.join(", ")}) were added or changed after the project was trusted, at the start of this session, so they ask as usual (they take effect once deepcode starts again and trust covers them).`);
    else if (s.allowedTools.length && !trusted) lines.push("", `This project is not trusted, so the skill's allowed-tools (${s.allowedTools.join(", ")}) ask as usual.`);
    return { content: lines.join("\n"), summary: `Skill ${s.name} (${s.source}${files.length ? `, ${files.length} file${files.length === 1 ? "" : "s"}` : ""})`, meta: { skill: s.name, dir: s.dir } };
  }

  private release(sessionId: string): void {
    for (const off of this.grants.get(sessionId) ?? []) off();
    this.grants.delete(sessionId);
  }

  /** Notes for skills this session loaded that changed or went away since. */
  private changedSince(sessionId: string): Array<{ id: string; text: string }> {
    const mine = this.loaded.get(sessionId);
    if (!mine?.size) return [];
    const now = new Map(this.current().skills.map((s) => [s.name, s]));
    const notes: Array<{ id: string; text: string }> = [];
    for (const [name, digest] of mine) {
      const s = now.get(name);
      if (!s) {
        notes.push({ id: `skill:${name}`, text: `The skill "${name}" you loaded was removed; do not rely on its instructions any more.` });
        mine.delete(name);
      } else if (s.digest !== digest) {
        notes.push({ id: `skill:${name}`, text: `The skill "${name}" you loaded changed on disk since; load it again with the Skill tool before relying on it.` });
        mine.set(name, s.digest);
      }
    }
    return notes;
  }

  /** One `/name` command per skill the person may load, kept in step with the files (and the
   *  Skill tool, once there is a skill the model may load). */
  private syncCommands(): void {
    const skills = this.current().skills;
    if (skills.some((s) => s.modelInvocable)) this.addTool();
    const want = new Map(skills.filter((s) => s.userInvocable && s.name !== "skills").map((s) => [s.name, s]));
    for (const [name, c] of this.commands) {
      if (want.get(name)?.digest === c.skill.digest) continue;
      c.off();
      this.commands.delete(name);
    }
    for (const [name, s] of want) {
      if (this.commands.has(name)) continue;
      try {
        const off = this.api.command({
          name,
          description: `${oneLine(s.description, 80)} (skill, ${s.source})`,
          ...(s.argumentHint ? { args: s.argumentHint } : {}),
          print: true, // it makes a prompt: -p runs it as the turn
          run: async (ctx) => {
            const now = this.scan().skills.find((x) => x.name === name);
            if (!now) return ctx.print(`the skill ${name} is gone`);
            const loaded = this.load(now, ctx.args.trim(), ctx.sessionId);
            try {
              await ctx.submit(`The user asked for the skill "${name}"${ctx.args.trim() ? ` with: ${ctx.args.trim()}` : ""}. Follow it.\n\n${loaded.content}`);
            } finally {
              this.release(ctx.sessionId);
            }
          },
        });
        this.commands.set(name, { skill: s, off });
      } catch (err) {
        this.news.push(`the skill ${name} has no /${name} command: ${err instanceof Error ? err.message : String(err)}`);
        this.commands.set(name, { skill: s, off: () => undefined });
      }
    }
  }

  private listing(): string {
    const { skills, problems } = this.scan(false);
    if (skills.length === 0 && problems.length === 0) return "No skills. Put them in .deepcode/skills/<name>/SKILL.md or .claude/skills/<name>/SKILL.md (or ~/.deepcode/skills, ~/.claude/skills).";
    const width = Math.max(0, ...skills.map((s) => s.name.length));
    const lines = skills.map((s) => {
      const flags = [s.modelInvocable ? "" : "only on request", s.allowedTools.length ? `allows ${s.allowedTools.join(", ")}${s.scope === "project" && !this.api.trusted ? " (not applied: untrusted project)" : ""}` : ""].filter(Boolean);
      const where = s.scope === "plugin" ? s.source : `${s.source} (${s.scope})`;
      const display = s.displayName ? `"${oneLine(s.displayName, 40)}"  ` : "";
      return `${s.name.padEnd(width)}  ${where}  ${display}${oneLine(s.description, 70)}${flags.length ? `  [${flags.join("; ")}]` : ""}`;
    });
    for (const p of problems) lines.push(`! ${p}`);
    return lines.join("\n");
  }
}

/** The prefix's index of skills the model may load; none: no section. */
function indexSection(skills: readonly Skill[]): SystemSection | undefined {
  const shown = skills.filter((s) => s.modelInvocable);
  if (shown.length === 0) return undefined;
  const head = 'Skills: instructions for particular kinds of task, loaded on demand. When a task matches a skill\'s description, load it with the Skill tool ({"skill": "<name>"}) before you start, and follow it.';
  const lines: string[] = [];
  let size = head.length;
  for (const [i, s] of shown.entries()) {
    const line = `- ${s.name}: ${oneLine(s.description, MAX_DESCRIPTION_CHARS) || "(no description)"}`;
    // What does not fit is said, never dropped: the model can list the rest. The cut depends
    // only on the sorted skills, so the section stays byte-stable while they do.
    if (size + line.length + MORE_RESERVE > MAX_INDEX_CHARS) {
      lines.push(`- … ${shown.length - i} more skill${shown.length - i === 1 ? " is" : "s are"} not listed here: call Skill with {"skill": "${LIST}"} to see every skill with its description (add "args": "words" to keep those that mention them).`);
      break;
    }
    lines.push(line);
    size += line.length + 1;
  }
  return { id: "skills", text: [head, ...lines].join("\n") };
}

/** A skill by the name the model or person gave: exact, then ignoring case, then by its display name. */
function findSkill(skills: readonly Skill[], name: string): Skill | undefined {
  const lower = name.toLowerCase();
  const display = (s: Skill): string | undefined => (s.displayName ? `${s.scope === "plugin" ? s.name.slice(0, s.name.lastIndexOf(":") + 1) : ""}${s.displayName}`.toLowerCase() : undefined);
  return skills.find((x) => x.name === name) ?? skills.find((x) => x.name.toLowerCase() === lower) ?? skills.find((x) => display(x) === lower || x.displayName?.toLowerCase() === lower);
}

/** `{"skill": "list"}`: every skill the model may load, with its description; `args` words
 *  keep those whose name or description mentions each of them. Bounded like a skill body. */
function listAll(skills: readonly Skill[], args: string): ToolOutput {
  const words = args.toLowerCase().split(/\s+/).filter(Boolean);
  const shown = skills.filter((s) => s.modelInvocable).filter((s) => words.every((w) => `${s.name} ${s.displayName ?? ""} ${s.description}`.toLowerCase().includes(w)));
  const lines = [`${shown.length} skill${shown.length === 1 ? "" : "s"}${words.length ? ` mentioning ${words.join(" and ")}` : ""}; load one with {"skill": "<name>"}:`];
  let size = lines[0].length;
  for (const [i, s] of shown.entries()) {
    const line = `- ${s.name}: ${oneLine(s.description, MAX_DESCRIPTION_CHARS) || "(no description)"}`;
    if (size + line.length > MAX_BODY_CHARS) {
      lines.push(`- … ${shown.length - i} more: call again with "args" words to narrow the list`);
      break;
    }
    lines.push(line);
    size += line.length + 1;
  }
  return { content: lines.join("\n"), summary: `Skill list (${shown.length})` };
}

/** The body with `$ARGUMENTS` filled in (or the arguments after it, when it has no place for them), bounded. */
function bodyWith(body: string, args: string): string {
  let text = body.includes("$ARGUMENTS") ? body.replaceAll("$ARGUMENTS", args) : args ? `${body.trimEnd()}\n\nARGUMENTS: ${args}` : body;
  if (text.length > MAX_BODY_CHARS) text = `${text.slice(0, MAX_BODY_CHARS)}\n[… cut by deepcode: ${text.length - MAX_BODY_CHARS} more characters of SKILL.md; Read it for the rest]`;
  return text.trimEnd();
}

function oneLine(s: string, n: number): string {
  const l = s.replace(/\s+/g, " ").trim();
  return l.length > n ? `${l.slice(0, n - 1)}…` : l;
}

/** What a project skill's trust covers: its name and allowed-tools, as the trust digest does. */
function grantKey(s: Skill): string {
  return JSON.stringify([s.name, s.allowedTools]);
}
