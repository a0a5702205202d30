// A session has one writer. Two `deepcode -c` at once used to append to one transcript, and
// every later `-c` was refused by the API (records interleaved, results without their calls).
// Now the second is told who holds the session and goes on elsewhere, or forks it.
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { cliRig, type CliRig, type Run } from "../e2e/helpers.js";
import { BIN } from "../helpers/cli-env.js";
import type { Script } from "../sim/server.mjs";

let rig: CliRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

type Message = { role: string; content?: string | null };

/** "hold" runs a Bash call that waits for the file `go`; every other prompt is answered. */
const script: Script = {
  respond(json: { messages: Message[] }) {
    const m = json.messages;
    const last = [...m].reverse().find((x) => x.role === "user" && !String(x.content).startsWith("[deepcode]"));
    const prompt = String(last?.content ?? "").split("\n").pop() ?? "";
    const after = m.slice(m.lastIndexOf(last!) + 1).filter((x) => x.role === "assistant").length;
    if (prompt.includes("hold") && after === 0) return { tool_calls: [{ name: "Bash", arguments: { command: "while [ ! -f go ]; do sleep 0.05; done; echo released" } }] };
    return { content: `answered: ${prompt}` };
  },
};

function start(args: string[]): { done: Promise<Run>; pid: number } {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: rig!.env.root, env: rig!.env.env });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  child.stdin.end("");
  return { pid: child.pid!, done: new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr }))) };
}

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 2400 && !cond(); i++) await new Promise((r) => setTimeout(r, 25));
  expect(cond()).toBe(true);
}

const sessionsDir = (): string => {
  const base = join(rig!.env.home, "sessions");
  return join(base, readdirSync(base)[0]);
};
const idOf = (r: Run): string => (JSON.parse(r.stdout.trim().split("\n").pop()!) as { session_id: string }).session_id;
const records = (id: string) =>
  readFileSync(join(sessionsDir(), `${id}.jsonl`), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { t: string; id?: string; m?: { role: string; content?: string } });

describe("one writer per session", () => {
  it("a second -c while the latest session is being written goes on in another session, says so, and the first stays valid", async () => {
    rig = await cliRig(script);
    const first = await rig.run(["-p", "--output-format", "json", "first"]);
    expect(first.code).toBe(0);
    const id = idOf(first);

    const held = start(["-p", "-c", "--allowedTools", "Bash", "--output-format", "json", "hold it"]);
    await until(() => existsSync(join(sessionsDir(), `${id}.lock`)) && rig!.sim.requests.length >= 2);
    const lock = JSON.parse(readFileSync(join(sessionsDir(), `${id}.lock`), "utf8")) as { pid: number; host: string };
    expect(lock.pid).toBe(held.pid);

    const second = await rig.run(["-p", "-c", "--output-format", "json", "meanwhile"]);
    expect(second.code).toBe(0);
    expect(second.stderr).toContain(`${id} (pid ${held.pid} on ${lock.host}) is in use by another deepcode`);
    expect(idOf(second)).not.toBe(id);

    // -r of the held session is refused, naming the process; nothing is written to it.
    const direct = await rig.run(["-p", "-r", id, "direct"]);
    expect(direct.code).toBe(1);
    expect(direct.stderr).toContain(`session ${id} is in use by deepcode (pid ${held.pid}`);
    expect(direct.stderr).toContain("--fork-session");

    // deepcode sessions says which session is in use, and by whom.
    const listed = await rig.run(["sessions"]);
    expect(listed.stdout).toMatch(new RegExp(`${id} .*\\(in use: pid ${held.pid} on `));

    writeFileSync(join(rig.env.root, "go"), "");
    const done = await held.done;
    expect(done.code).toBe(0);
    expect(idOf(done)).toBe(id);
    expect(existsSync(join(sessionsDir(), `${id}.lock`))).toBe(false);

    // Only the holder wrote to the session: its prompts, in order, and one session record.
    const prompts = records(id).filter((r) => r.t === "msg" && r.m?.role === "user").map((r) => r.m!.content!.split("\n").pop());
    expect(prompts).toEqual(["first", "hold it"]);
    expect(records(id).filter((r) => r.t === "session")).toHaveLength(1);

    // And it goes on: the next -c is accepted by the API.
    const next = await rig.run(["-p", "-c", "-r", id, "--output-format", "json", "after"]);
    expect(next.code).toBe(0);
    expect(rig.sim.requests.every((q) => q.status === 200)).toBe(true);
  });

  it("--fork-session -c continues a copy of a held session, whose first request extends the original's", async () => {
    rig = await cliRig(script);
    const first = await rig.run(["-p", "--output-format", "json", "first"]);
    const id = idOf(first);
    const held = start(["-p", "-c", "--allowedTools", "Bash", "--output-format", "json", "hold it"]);
    await until(() => rig!.sim.requests.length >= 2);
    const heldBody = JSON.parse(rig.sim.requests[1].body) as { messages: unknown[] };

    const fork = await rig.run(["-p", "-c", "--fork-session", "--output-format", "json", "in the fork"]);
    expect(fork.code).toBe(0);
    expect(fork.stderr).toMatch(new RegExp(`forked session ${id} as \\S+`));
    const forkId = idOf(fork);
    expect(forkId).not.toBe(id);
    const forkBody = JSON.parse(rig.sim.requests[2].body) as { messages: unknown[] };
    // The fork has the original's conversation as it was (before the held turn began).
    const firstBody = JSON.parse(rig.sim.requests[0].body) as { messages: unknown[] };
    expect(forkBody.messages.slice(0, firstBody.messages.length)).toEqual(firstBody.messages);
    expect(heldBody.messages.length).toBeGreaterThan(firstBody.messages.length);
    expect(records(forkId)[0]).toMatchObject({ t: "session", id: forkId, forkedFrom: id });

    writeFileSync(join(rig.env.root, "go"), "");
    expect((await held.done).code).toBe(0);
    expect(rig.sim.requests.every((q) => q.status === 200)).toBe(true);
  });

  it("takes over the lock of a process that died (kill -9) without a word", async () => {
    rig = await cliRig(script);
    const first = await rig.run(["-p", "--output-format", "json", "first"]);
    const id = idOf(first);
    // A lock left by a process that no longer exists.
    const dead = spawn(process.execPath, ["-e", ""]);
    await new Promise((r) => dead.on("close", r));
    writeFileSync(join(sessionsDir(), `${id}.lock`), JSON.stringify({ pid: dead.pid, host: (await import("node:os")).hostname(), started: new Date().toISOString() }));
    const next = await rig.run(["-p", "-c", "--output-format", "json", "again"]);
    expect(next.code).toBe(0);
    expect(idOf(next)).toBe(id);
    expect(next.stderr).not.toContain("in use");
  });

  it("three -c started at the same moment all run, none writing where another writes, and the latest goes on", async () => {
    rig = await cliRig(script);
    expect((await rig.run(["-p", "first"])).code).toBe(0);
    const runs = await Promise.all([1, 2, 3].map((k) => rig!.run(["-p", "-c", "--output-format", "json", `at once ${k}`])));
    expect(runs.map((r) => r.code), runs.map((r) => r.stderr).join("\n---\n")).toEqual([0, 0, 0]);
    // Each prompt reached exactly one transcript (a run may find the session free again once an
    // earlier one finished), and every transcript was written by one process at a time.
    const ids = [...new Set(runs.map(idOf))];
    const prompts = ids.flatMap((id) => records(id).filter((x) => x.t === "msg" && x.m?.role === "user").map((x) => x.m!.content!.split("\n").pop()!));
    expect(prompts.filter((u) => u.startsWith("at once")).sort()).toEqual(["at once 1", "at once 2", "at once 3"]);
    for (const id of ids) expect(records(id).filter((x) => x.t === "session")).toHaveLength(1);
    expect((await rig.run(["-p", "-c", "after"])).code).toBe(0);
    expect(rig.sim.requests.every((q) => q.status === 200)).toBe(true);
  });
});
