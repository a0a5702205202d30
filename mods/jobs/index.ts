// Built-in mod: background jobs, with Claude Code's names and parameters so agent files, hooks
// and permission rules carry over.
//
//   Bash {run_in_background: true}   starts the command as a job and returns at once with its id
//   BashOutput {bash_id, filter?}    what the job wrote since the last read, and its status
//   KillShell {shell_id}             stops it (SIGTERM to its process group, then SIGKILL)
//   /jobs [kill ID] (/bashes)        the person's list of jobs, and a way to stop one
//
// How a background call is answered. `tool.list` adds `run_in_background` to Bash's definition
// (once, when the prefix is built). `tool.input` takes the flag out of a Bash call's input and
// remembers the call, so the gate, the hooks and the checkpoints see exactly what a foreground
// call of that command shows them (`tool.check` with tool "Bash" and its command: `Bash(npm run
// dev:*)` rules apply as written; a denied command never starts). `tool.call` then answers a
// remembered call itself: the job is a `process.run` dispatched through the chain, so the
// sandbox wraps it like any command, in the folder the session's Bash is in (api.shellCwd).
//
// The cost of a session that never uses them: BashOutput and KillShell are on-demand tools
// (ToolSpec.onDemand ""): out of the prefix and never announced; the start result tells the model
// how to call them. Only the short `run_in_background` property is in every prefix.
//
// Jobs die with the session: the core runs each in a process group of its own and kills every
// live group when deepcode exits, and after a kill -9 its watchdog (which sees deepcode's end as
// the end of a pipe) does; bwrap's --die-with-parent takes the sandboxed ones down with it. The
// session's end (the REPL's exit or /new, the end of a -p run) kills them here first.
//
// The model hears when a job it did not stop ends: appended to the next tool result of the
// session that started it (the next request's tail), or as a note at its next turn
// (`context.tail`); a subagent's job, once that subagent's run is over, is told to the main
// session. Nothing changes the prefix.
//
// A job may be a dev server: it asks the sandbox to serve (ProcessRunRequest.serve), which
// forwards each port it listens on from the host's loopback. The address is in the start result
// when known by then, else in a note on the session's next tool result (or turn); BashOutput's
// status and /jobs show it while it lasts. A port taken on the host is said the same way.
//
// Configuration (`pluginConfig.jobs`): maxJobs (running at once, default 8), maxOutputChars
// (output kept per job, default 500,000; older output is dropped and counted).

import { statSync } from "node:fs";
import { relative } from "node:path";
import type { JsonValue, Logger, Plugin, PluginApi, ToolOutput } from "../../src/contract/index.js";
import { nestedQuantifier } from "../../src/lib/regex.js";
import { endedAtOnceText, exitNotice, readNew, servedNotice, servedText, shortCommand, startText, stateText, table, takenNotice } from "./format.js";
import { DEFAULT_LIMITS, JobTable, type Job, type JobLimits } from "./table.js";

/** How long a start waits to see whether the job ended at once (a hook refused it, bash could
 *  not start, a typo): said then as a foreground result, rather than as a job that never ran. */
const START_WAIT_MS = 150;
/** Background calls seen at tool.input and not yet answered (a denied one never reaches
 *  tool.call): the oldest are forgotten past this many. */
const MAX_MARKS = 256;

/** No description: the name says it, and the start result says the rest (how to read and stop
 *  the job) when it is used. Every token here is paid by every session (measured on the peers
 *  bench's short session: +10 tokens of the cold prefix; with a one-line description, +23). */
const RUN_IN_BACKGROUND = { type: "boolean" } as const;

const plugin: Plugin = {
  id: "jobs",
  description: "background Bash jobs: run_in_background, BashOutput, KillShell, /jobs",
  // Inside checkpoints' tool.call hook: a background command's files are saved first, as a
  // foreground one's.
  placement: { after: ["checkpoints"] },
  register(api) {
    const limits = readLimits(api.config, api.log);
    /** A subagent's session → the main session it works for; and the subagents whose run ended. */
    const mainOf = new Map<string, string>();
    const over = new Set<string>();
    const marks = new Set<string>();
    /** Addresses of jobs' servers the model has not heard of yet, per session that hears them. */
    const servedNotes: Array<{ job: Job; port: number; text: string; early: boolean; taken?: boolean }> = [];
    const jobs = new JobTable((req) => api.dispatch({ type: "process.run", ...req }), limits, (job) => ended(job), Date.now, (job, n) => {
      // One forwarded before the start result was written is said there, not again.
      if (n.state === "forwarded" && n.address) servedNotes.push({ job, port: n.port, text: servedNotice(job, n.address), early: !job.startTold });
      if (n.state === "taken") servedNotes.push({ job, port: n.port, text: takenNotice(job, n.port, n.detail ?? "it is taken"), early: !job.startTold, taken: true });
    });

    const ended = (job: Job): void => {
      if (job.stoppedBy === "model" || job.stoppedBy === "session") {
        job.heard = true;
        return;
      }
      if (job.stoppedBy === "person") return;
      const text = `background job ${job.id} (${shortCommand(job.command)}) ${stateText(job)}`;
      api.dispatch({ type: "ui.render", item: { kind: "text", text, level: job.exitCode === 0 ? "info" : "warn" } }).catch(() => undefined); // nobody to show it to: the model still hears
    };
    /** The session that hears of a job's end: its own, or the main one once a subagent's run is over. */
    const hearer = (job: Job): string => (over.has(job.sessionId) ? (mainOf.get(job.sessionId) ?? job.sessionId) : job.sessionId);
    const takeNotices = (sessionId: string): string[] => {
      const serving = servedNotes.filter((n) => hearer(n.job) === sessionId && (n.taken ? n.job.state === "running" : n.job.served.has(n.port)) && !n.early);
      for (let i = servedNotes.length - 1; i >= 0; i--) if (hearer(servedNotes[i].job) === sessionId || servedNotes[i].job.state !== "running") servedNotes.splice(i, 1);
      const due = jobs.list().filter((j) => j.state !== "running" && !j.heard && hearer(j) === sessionId);
      for (const j of due) j.heard = true;
      return [...serving.map((n) => n.text), ...due.map(exitNotice)];
    };
    const key = (sessionId: string, callId: string): string => `${sessionId}\u0000${callId}`;

    api.on("tool.list", async (_e, next) => {
      const defs = await next();
      return defs.map((d) => {
        const params = d.function.parameters;
        if (d.function.name !== "Bash" || !params.properties) return d;
        return { ...d, function: { ...d.function, parameters: { ...params, properties: { ...params.properties, run_in_background: RUN_IN_BACKGROUND } } } };
      });
    });

    api.on("tool.input", { tool: "Bash" }, async (e, next) => {
      const r = await next();
      if (!("input" in r) || !Object.hasOwn(r.input, "run_in_background")) return r;
      const { run_in_background: flag, ...input } = r.input;
      if (flag === true || flag === "true") {
        marks.add(key(e.sessionId, e.callId));
        if (marks.size > MAX_MARKS) marks.delete(marks.values().next().value as string);
      }
      return { input };
    });

    api.on("tool.call", { tool: "Bash" }, async (e, next) => {
      if (!marks.delete(key(e.sessionId, e.callId))) return next();
      return start(api, jobs, e.sessionId, e.input);
    });

    api.on("tool.result", async (e, next) => {
      const out = await next();
      const due = takeNotices(e.sessionId);
      return due.length ? { ...out, content: `${out.content}\n\n[deepcode] ${due.join(" ")}` } : out;
    });

    api.on("context.tail", async (e, next) => {
      const r = await next();
      const due = takeNotices(e.sessionId);
      return due.length ? { notes: [...r.notes, { id: "jobs", text: due.join("\n") }] } : r;
    });

    api.on("turn.start", async (e, next) => {
      if (e.agent) mainOf.set(e.sessionId, e.agent.rootSessionId);
      return next();
    });
    api.on("turn.complete", async (e, next) => {
      const r = await next();
      if (e.agent && !r?.continueWith) over.add(e.sessionId);
      return r;
    });

    // The main session ended (the REPL's exit or /new, the end of a -p run): its jobs and its
    // subagents' go with it.
    api.on("session.end", async (_e, next) => {
      await jobs.killAll("session");
      return next();
    });

    api.tool({
      name: "BashOutput",
      description: "New output of a background Bash job since the last read, and its status.",
      inputSchema: {
        type: "object",
        properties: {
          bash_id: { type: ["string", "integer"], description: "The job's id" },
          filter: { type: "string", description: "A regular expression: only matching lines are shown (the others are consumed)" },
        },
        required: ["bash_id"],
        additionalProperties: false,
      },
      readOnly: true,
      onDemand: "",
      run: async (input, ctx) => {
        const job = jobs.get(String(input.bash_id));
        if (!job) return unknownJob(jobs, input.bash_id);
        let filter: RegExp | undefined;
        if (typeof input.filter === "string" && input.filter !== "") {
          // A filter runs in deepcode's own thread: one that can backtrack for minutes is refused.
          if (nestedQuantifier(input.filter)) return { content: `filter ${JSON.stringify(input.filter)} repeats a group that itself repeats (like (a+)+), which can take minutes on one line; write it without the nested repeat.`, isError: true };
          try {
            filter = new RegExp(input.filter);
          } catch (err) {
            return { content: `filter is not a valid regular expression: ${(err as Error).message}`, isError: true };
          }
        }
        const r = readNew(job, filter, Date.now());
        let content = r.text;
        if (r.whole) {
          const kept = await ctx.keepOutput(r.whole);
          if (kept) content += `\n[all of this read: Read ${kept}]`;
        }
        return { content, isError: r.isError, summary: `BashOutput ${job.id} → ${stateText(job)}`, meta: jobMeta(job) };
      },
    });

    api.tool({
      name: "KillShell",
      description: "Stop a background Bash job.",
      inputSchema: {
        type: "object",
        properties: { shell_id: { type: ["string", "integer"], description: "The job's id" } },
        required: ["shell_id"],
        additionalProperties: false,
      },
      // It changes nothing but this deepcode's own jobs, which the gate already let run: allowed
      // by default, as in Claude Code (a `KillShell` deny rule still refuses it).
      readOnly: true,
      onDemand: "",
      run: async (input) => {
        const job = jobs.get(String(input.shell_id));
        if (!job) return unknownJob(jobs, input.shell_id);
        if (job.state !== "running") {
          job.heard = true;
          return { content: `Job ${job.id} already ended (${stateText(job)}); nothing to stop.`, summary: `KillShell ${job.id} → already ended`, meta: jobMeta(job) };
        }
        const stopped = await jobs.kill(job, "model");
        return stopped
          ? { content: `Killed job ${job.id} (\`${shortCommand(job.command)}\`).`, summary: `KillShell ${job.id} → killed`, meta: jobMeta(job) }
          : { content: `Job ${job.id} was sent SIGTERM and then SIGKILL but has not ended yet.`, isError: true, summary: `KillShell ${job.id} → not ended yet`, meta: jobMeta(job) };
      },
    });

    for (const name of ["jobs", "bashes"]) {
      api.command({
        name,
        args: "[kill ID|all]",
        description: name === "jobs" ? "background jobs: list them (state, runtime, output), or stop one" : "the same as /jobs",
        complete: (p, words) => (words.length === 0 ? ["kill"] : words[0] === "kill" && words.length === 1 ? [...jobs.running().map((j) => j.id), "all"] : []).filter((x) => x.startsWith(p)),
        run: async (ctx) => {
          const [verb, id, ...rest] = ctx.args.trim().split(/\s+/).filter(Boolean);
          if (!verb) return ctx.print(table(jobs.list(), Date.now()));
          if (verb !== "kill" || !id || rest.length > 0) return ctx.print(`usage: /${name} [kill ID|all]`);
          const targets = id === "all" ? jobs.running() : [jobs.get(id)].filter((j): j is Job => j !== undefined);
          if (targets.length === 0) return ctx.print(id === "all" ? "No job is running." : `No job ${id}. /${name} lists them.`);
          for (const job of targets) {
            if (job.state !== "running") {
              ctx.print(`job ${job.id} has already ${stateText(job)}`);
              continue;
            }
            const stopped = await jobs.kill(job, "person");
            ctx.print(stopped ? `stopped job ${job.id} (${shortCommand(job.command)})` : `job ${job.id} was sent SIGTERM and SIGKILL but has not ended yet`);
          }
        },
      });
    }
  },
};

export default plugin;

async function start(api: PluginApi, jobs: JobTable, sessionId: string, input: Readonly<Record<string, JsonValue>>): Promise<ToolOutput> {
  const command = typeof input.command === "string" ? input.command : "";
  if (command.trim() === "") return { content: "command is empty.", isError: true };
  let cwd = api.shellCwd(sessionId);
  if (!isDirectory(cwd)) cwd = api.root;
  const description = typeof input.description === "string" ? input.description : undefined;
  const job = jobs.start({ sessionId, command, cwd, ...(description ? { description } : {}) });
  if ("refused" in job) return { content: job.refused, isError: true, summary: `Bash ${shortCommand(command)} → not started (too many jobs)` };
  let timer: NodeJS.Timeout | undefined;
  const atOnce = await Promise.race([job.done.then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), START_WAIT_MS)))]);
  clearTimeout(timer);
  if (atOnce) {
    return { content: endedAtOnceText(job), isError: job.state !== "exited" || job.exitCode !== 0, summary: `Bash ${shortCommand(command)} → ${stateText(job)}`, meta: jobMeta(job) };
  }
  const where = relative(api.root, cwd);
  job.startTold = true; // the addresses known now are in the start result; later ones come as notices
  return { content: startText(job, where && !where.startsWith("..") ? where : cwd === api.root ? "" : cwd), summary: `Bash ${shortCommand(command)} → background job ${job.id}`, meta: jobMeta(job) };
}

function jobMeta(job: Job): Record<string, JsonValue> {
  const meta: Record<string, JsonValue> = { background: true, jobId: job.id, state: job.state, exitCode: job.exitCode, signal: job.signal, outputChars: job.out.total, droppedChars: job.out.dropped };
  if (job.sandbox) meta.sandbox = job.sandbox;
  const served = servedText(job);
  if (served) meta.served = served;
  if (job.description) meta.description = job.description;
  return meta;
}

function unknownJob(jobs: JobTable, id: unknown): ToolOutput {
  const known = jobs.list().map((j) => j.id);
  return { content: `No background job ${String(id)}.${known.length ? ` Jobs: ${known.join(", ")}.` : " None was started."}`, isError: true };
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false; // ENOENT and the like: the folder is gone, so the job starts at the root
  }
}

function readLimits(config: Readonly<Record<string, JsonValue>>, log: Logger): JobLimits {
  const n = (name: "maxJobs" | "maxOutputChars", min: number, max: number): number => {
    const v = config[name];
    if (v === undefined) return DEFAULT_LIMITS[name];
    if (typeof v === "number" && Number.isInteger(v) && v >= min && v <= max) return v;
    log.warn(`pluginConfig.jobs.${name} must be an integer from ${min} to ${max}, not ${JSON.stringify(v)}; using ${DEFAULT_LIMITS[name]}`);
    return DEFAULT_LIMITS[name];
  };
  return { ...DEFAULT_LIMITS, maxJobs: n("maxJobs", 1, 64), maxOutputChars: n("maxOutputChars", 1_000, 50_000_000) };
}
