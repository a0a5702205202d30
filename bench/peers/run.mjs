// Runs the sessions: every agent, one after another, each on a fresh copy of the session's
// repository and a fake home of its own, against the one stand-in of the run. One process per
// task; tasks after the first resume the agent's latest session. Returns, per session and agent,
// the analysis (analyse.mjs), whether each task ended correctly, and what went wrong.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { analyse } from "./analyse.mjs";
import { createModel } from "./model.mjs";
import { startStandin } from "./standin.mjs";
import { versionOf } from "./install.mjs";

const PROCESS_TIMEOUT_MS = 10 * 60_000;

/** DEEPCODE_BENCH_PEERS_DUMP=folder: every request of every agent as sent, for reading by eye. */
function dump(dir, name, billed, refused) {
  mkdirSync(dir, { recursive: true });
  const requests = billed.map((b) => ({ info: { ...b.info, rendered: undefined }, usage: b.usage, body: b.record.json }));
  writeFileSync(join(dir, `${name}.json`), JSON.stringify({ requests, refused }, null, 1));
}

/** One process of an agent; resolves with its exit code, time and the tail of its output. */
function runProcess(cmd, args, { cwd, env }) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    // Its own process group, so a timeout ends the agent and whatever it started, nothing else.
    const child = spawn(cmd, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let out = "";
    const keep = (d) => {
      out = (out + d).slice(-4000);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }, PROCESS_TIMEOUT_MS);
    child.on("error", (err) => {
      clearTimeout(timer);
      resolve({ code: -1, ms: Date.now() - t0, tail: String(err.message) });
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, signal, ms: Date.now() - t0, tail: out });
    });
  });
}

/**
 * Runs `sessions` × `agentList`. `log` gets one line per process. Returns
 * `{ sessions: [{ id, label, agents: [{ id, label, version, ... }] }] }`.
 */
export async function runAll(sessions, agentList, { log = () => {} } = {}) {
  let current = null;
  const standin = await startStandin((chat) => {
    try {
      return current.respond(chat);
    } catch (err) {
      // A bug of the scripted model: the agent gets a plain answer, the report names the bug.
      current.errors.push(`crashed: ${err.stack ?? err}`);
      return { reply: { content: "(the scripted model failed on this request)" }, info: { kind: "unknown" } };
    }
  });
  const out = [];
  try {
    for (const session of sessions) {
      const rows = [];
      for (const agent of agentList) {
        // Same path length for every agent: absolute paths in tool calls cost the same.
        const base = mkdtempSync(join(tmpdir(), "dcpeers-"));
        const root = join(base, "repo");
        const home = join(base, "home");
        mkdirSync(root);
        mkdirSync(home);
        try {
          session.makeRepo(root);
          const model = createModel(session, { root: () => root });
          current = model;
          const env = agent.setup({ home, url: standin.url, proxy: standin.proxy, window: session.window });
          const version = versionOf(agent.cmd, agent.versionArgs, env);
          const processes = [];
          for (const [i, task] of session.tasks.entries()) {
            const r = await runProcess(agent.cmd, agent.argv(task.prompt, i > 0), { cwd: root, env });
            processes.push({ task: task.id, ...r });
            log(`  ${session.id} · ${agent.id} · ${task.id}: exit ${r.code}${r.signal ? ` (${r.signal})` : ""} in ${(r.ms / 1000).toFixed(1)} s`);
          }
          const { billed, refused, phoned } = standin.slice();
          if (process.env.DEEPCODE_BENCH_PEERS_DUMP) dump(process.env.DEEPCODE_BENCH_PEERS_DUMP, `${session.id}-${agent.id}`, billed, refused);
          const tasks = session.tasks.map((task) => {
            const p = processes.find((x) => x.task === task.id);
            const why = [];
            if (p.code !== 0) why.push(`exit ${p.code}: ${p.tail.trim().split("\n").slice(-2).join(" ").slice(0, 200)}`);
            if (!model.finals.has(task.id)) why.push("the model never gave its final answer");
            const state = task.check(root);
            if (state) why.push(state);
            const missing = model.neededSeen(task);
            const { reread, lost } = model.relearned(task);
            // A fact the model wrote down without having it in front of it: a real model could not.
            if (lost.length) why.push(`used facts it no longer had: ${lost.map((f) => JSON.stringify(f.slice(0, 40))).join(", ")}`);
            return { id: task.id, ok: why.length === 0, why, infoReached: missing.length === 0, missing, reread, lost };
          });
          rows.push({ id: agent.id, label: agent.label, version, tasks, refused, phoned, modelErrors: model.errors, ...analyse(billed) });
        } finally {
          rmSync(base, { recursive: true, force: true });
        }
      }
      out.push({ id: session.id, label: session.label, agents: rows });
    }
  } finally {
    await standin.close();
  }
  return { sessions: out };
}
