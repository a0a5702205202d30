// The fault-injection rig: the real CLI against the simulator, one project, and faults at
// random points — kill -9 mid-run, a damaged transcript, two processes on one session — each
// followed by the checks a person would make: `deepcode -c` goes on (every request accepted by
// the API's history rules), the files deepcode wrote are whole, and the cost ledger has each
// request once. Seeded: a failure names its seed and trial, and the same seed replays it.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliRig, runBin, type CliRig, type Run } from "../e2e/helpers.js";
import { BIN as OWN_BIN } from "../helpers/cli-env.js";

/** The CLI under test: this build, or another one's bin/deepcode.js (to measure main, say). */
const BIN = process.env.DEEPCODE_FAULTS_BIN ?? OWN_BIN;
import type { Script } from "../sim/server.mjs";

/** mulberry32: a small seeded generator, so a trial is reproducible from its seed. */
export function rng(seed: number): { next(): number; int(n: number): number; pick<T>(xs: readonly T[]): T } {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n) => Math.floor(next() * n), pick: (xs) => xs[Math.floor(next() * xs.length)] };
}

type Message = { role: string; content?: string | null };

/** What file `fK.txt` holds once turn K wrote it: big enough that a half write would show. */
export const fileBody = (k: number): string => `turn ${k}\n${"x".repeat(4 * 1024)}\n`;

/** "turn K": two concurrent Reads, then a Write and a Bash append, then "done K". Stateless,
 *  so it answers a resumed, repaired or forked conversation as well as a fresh one. */
export const script: Script = {
  respond(json: { messages: Message[] }) {
    const m = json.messages;
    for (let i = m.length - 1; i >= 0; i--) {
      const hit = m[i].role === "user" ? /turn (\d+)$/.exec(String(m[i].content ?? "")) : null;
      if (!hit) continue;
      const k = Number(hit[1]);
      const round = m.slice(i + 1).filter((x) => x.role === "assistant").length;
      if (round === 0) return { tool_calls: [{ name: "Read", arguments: { file_path: "shared.txt" } }, { name: "Read", arguments: { file_path: "a.txt" } }] };
      if (round === 1) return { tool_calls: [{ name: "Write", arguments: { file_path: `f${k}.txt`, content: fileBody(k) } }, { name: "Bash", arguments: { command: `echo line${k} >> shared.txt` } }] };
      return { content: `done ${k}` };
    }
    return { content: "ok" };
  },
};

// One word (`=`): the flag is variadic, as Claude Code's, so a prompt after it would be a value.
export const ALLOW = ["--allowedTools=Write,Bash"];

export interface Trial {
  kind: "kill" | "corrupt" | "race";
  detail: string;
}

export class FaultRig {
  private turn = 0;
  private constructor(readonly rig: CliRig) {}

  static async start(): Promise<FaultRig> {
    return new FaultRig(await cliRig(script, { "shared.txt": "line0\n", "a.txt": "alpha\n" }));
  }

  close(): Promise<void> {
    return this.rig.close();
  }

  nextTurn(): string {
    return `turn ${++this.turn}`;
  }

  /** `deepcode -p -c "turn K"`, killed with SIGKILL once the simulator has seen `after` more
   *  requests and then `ms` more milliseconds (or when it ends by itself). */
  async killed(after: number, ms: number): Promise<Run & { killed: boolean }> {
    const base = this.rig.sim.requests.length;
    const child = spawn(process.execPath, [BIN, "-p", "-c", ...ALLOW, this.nextTurn()], { cwd: this.rig.env.root, env: this.rig.env.env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.stdin.end("");
    let ended = false;
    const done = new Promise<number | null>((resolve) => child.on("close", (code) => ((ended = true), resolve(code))));
    while (!ended && this.rig.sim.requests.length < base + after) await sleep(5);
    if (!ended && ms > 0) await sleep(ms);
    const killed = !ended && child.kill("SIGKILL");
    const code = await done;
    return { code, stdout, stderr, killed };
  }

  run(args: string[]): Promise<Run> {
    return runBin(args, { cwd: this.rig.env.root, env: this.rig.env.env, entry: [BIN] });
  }

  /** The project's session files, newest first. */
  sessionFiles(): string[] {
    const base = join(this.rig.env.home, "sessions");
    if (!existsSync(base)) return [];
    const dir = join(base, readdirSync(base)[0]);
    return readdirSync(dir)
      .filter((f) => f.endsWith(".jsonl"))
      .map((f) => join(dir, f))
      .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  }

  /** Damage the newest session file: cut it at a random point of its last lines, garble a
   *  random line, or drop a random line. Returns what was done. */
  corrupt(r: ReturnType<typeof rng>): string {
    const file = this.sessionFiles()[0];
    const text = readFileSync(file, "utf8");
    const lines = text.split("\n");
    const mode = r.pick(["truncate", "garble", "drop"] as const);
    if (mode === "truncate") {
      const cut = Math.floor(text.length * (0.7 + 0.3 * r.next()));
      writeFileSync(file, text.slice(0, cut));
      return `truncated at byte ${cut} of ${text.length}`;
    }
    const k = 1 + r.int(Math.max(1, lines.length - 2)); // not the session record
    if (mode === "drop") lines.splice(k, 1);
    else {
      const at = r.int(Math.max(1, lines[k].length));
      lines[k] = `${lines[k].slice(0, at)}\u0000#garbage#${lines[k].slice(at + 7)}`;
    }
    writeFileSync(file, lines.join("\n"));
    return `${mode === "drop" ? "dropped" : "garbled"} line ${k + 1} of ${lines.length}`;
  }

  /** After a fault: what is wrong (empty when all is well). `from`: requests before the check. */
  async check(): Promise<string[]> {
    const problems: string[] = [];
    const from = this.rig.sim.requests.length;
    const r = await this.run(["-p", "-c", ...ALLOW, "--output-format", "json", this.nextTurn()]);
    if (r.code !== 0) problems.push(`-c exited ${r.code}: ${r.stderr.trim().split("\n").pop()}`);
    const refused = this.rig.sim.requests.slice(from).filter((q) => q.status !== 200);
    if (refused.length) problems.push(`${refused.length} request(s) of -c refused: ${refused.map((q) => q.status).join(", ")}`);
    for (let k = 1; k <= this.turn; k++) {
      const f = join(this.rig.env.root, `f${k}.txt`);
      if (existsSync(f) && readFileSync(f, "utf8") !== fileBody(k)) problems.push(`f${k}.txt is not whole (${statSync(f).size} bytes)`);
    }
    problems.push(...this.ledgerProblems());
    return problems;
  }

  /** Each request in the ledger once: every answered request's usage (prompt, cache hit,
   *  completion tokens) is booked at most as often as the API answered it, and at most one
   *  answered request is missing per process killed (its reply in flight). */
  ledgerProblems(): string[] {
    const file = join(this.rig.env.home, "usage.jsonl");
    const lines = existsSync(file) ? readFileSync(file, "utf8").split("\n").filter((l) => l.trim()) : [];
    const booked = new Map<string, number>();
    for (const l of lines) {
      try {
        const j = JSON.parse(l) as { prompt: number; hit: number; completion: number };
        const key = `${j.prompt}/${j.hit}/${j.completion}`;
        booked.set(key, (booked.get(key) ?? 0) + 1);
      } catch {
        continue; // a torn last line of a killed process: the ledger reader skips it and says so
      }
    }
    const answered = new Map<string, number>();
    for (const q of this.rig.sim.requests) {
      if (q.status !== 200 || !q.usage) continue;
      const key = `${q.usage.prompt_tokens}/${q.usage.prompt_cache_hit_tokens}/${q.usage.completion_tokens}`;
      answered.set(key, (answered.get(key) ?? 0) + 1);
    }
    const out: string[] = [];
    const extra = [...booked].filter(([k, n]) => n > (answered.get(k) ?? 0)).map(([k, n]) => `${k} ×${n}`);
    if (extra.length) out.push(`ledger books requests more often than the API answered them: ${extra.join(", ")}`);
    const total = (m: Map<string, number>): number => [...m.values()].reduce((a, b) => a + b, 0);
    const missing = total(answered) - total(booked);
    if (missing > this.killedSoFar) out.push(`ledger misses ${missing} answered requests (${this.killedSoFar} kills)`);
    return out;
  }

  killedSoFar = 0;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
