// The corpus of real DeepSeek model failures (test/fixtures/model-failures/*.json), each replayed
// through the simulator as the exact SSE chunks, run by the real CLI in `-p`, and judged by its
// effects: the intended tool ran (files on disk, what a Read returned), nothing unintended ran
// (canary.txt never appears), the turn ends with a true stop reason (and the exit code agrees),
// every request — the one after the failure included — is accepted by a simulator that enforces
// DeepSeek's history rules, and `-c` continues the session. DEEPCODE_CORPUS_BIN runs another
// build of deepcode (the measurement of main in the closing note used it).
import { describe, expect, it } from "vitest";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startSimulator, type Script, type ScriptEntry, type Simulator } from "../sim/server.mjs";
import { BIN, cliEnv, type CliEnv } from "../helpers/cli-env.js";
import { runBin } from "../e2e/helpers.js";

interface Expect {
  files?: Record<string, string>;
  absent?: string[];
  stop: string;
  resultIncludes?: string[];
  resultExcludes?: string[];
  stderrIncludes?: string[];
  toolResultIncludes?: string;
  maxRequests?: number;
  /** Text no assistant message of any request in this run may hold (what must stay out of the
   *  history: reasoning moved out of the answer, a degenerate reply). */
  assistantExcludes?: string[];
  /** The model's raw arguments, kept whole in the session file where the log holds other JSON. */
  rawKept?: string;
}
interface Case {
  id: string;
  family: string;
  source: string;
  model: string;
  payload: "verbatim" | "reconstructed";
  files: Record<string, string>;
  prompt: string;
  replies: ScriptEntry[];
  default?: ScriptEntry;
  alternate?: ScriptEntry[];
  expect: Expect;
  continue?: { prompt: string; replies: ScriptEntry[]; expect: Expect };
  /** Settings for both runs (merged over the permissions every case gets). */
  settings?: Record<string, unknown>;
  /** The stand-in's context window, in characters of the request's messages: a longer request
   *  is refused as DeepSeek refuses it (400, "maximum context length"). */
  contextLimitChars?: number;
}

const DIR = fileURLToPath(new URL("../fixtures/model-failures/", import.meta.url));
const CLI = process.env.DEEPCODE_CORPUS_BIN ?? BIN;
const families = readdirSync(DIR).filter((f) => f.endsWith(".json")).sort().map((f) => JSON.parse(readFileSync(join(DIR, f), "utf8")) as { family: string; cases: Case[] });

function deepcode(env: CliEnv, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runBin(args, { cwd: env.root, env: env.env, entry: [CLI] });
}

/** A script that answers the replies in order, then the case's default (or alternation). A
 *  request over the case's context window is refused without consuming a reply. */
function scriptOf(replies: ScriptEntry[], c?: Case, limit?: number, faults = { status: 0 }): Script {
  let i = 0;
  const counted = (e: ScriptEntry): ScriptEntry => {
    if (e.fault?.status !== undefined || e.fault?.resetBeforeResponse === true) faults.status++;
    return e;
  };
  return {
    respond: (req: { messages?: unknown[] }) => {
      const size = JSON.stringify(req.messages ?? []).length;
      if (limit !== undefined && size > limit) {
        const asked = Math.round(size * 0.3);
        return { fault: { status: 400, message: `This model's maximum context length is ${Math.round(limit * 0.3)} tokens. However, you requested ${asked} tokens (${asked} in the messages, 0 in the completion). Please reduce the length of the messages or completion.` } };
      }
      if (i < replies.length) return counted(replies[i++]);
      if (c?.alternate) return counted(c.alternate[i++ % c.alternate.length]);
      return counted(c?.default ?? { content: "Done." });
    },
  };
}

async function phase(sim: Simulator, env: CliEnv, args: string[], replies: ScriptEntry[], want: Expect, loopCase?: Case, limit?: number, earlier?: string): Promise<void> {
  const faults = { status: 0 };
  sim.setScript(scriptOf(replies, loopCase, limit, faults));
  const before = sim.requests.length;
  const r = await deepcode(env, args);
  const mine = sim.requests.slice(before);
  // Refused: every request answered with an error the script did not inject (an over-window
  // request is the stand-in's own refusal, counted apart).
  const refused = mine.filter((q) => q.status !== 200 && !(limit !== undefined && q.status === 400 && JSON.stringify(q.json?.messages ?? []).length > limit));
  expect(refused.length - faults.status, `requests the API refused (stderr: ${r.stderr.slice(-400)}; statuses ${refused.map((q) => q.status).join(", ")})`).toBe(0);
  // The reasoner refuses two user messages in a row (DeepSeek-R1#21): an earlier turn's prompt
  // is always followed by that turn's answer (or a note that it had none), never by a new prompt.
  if (earlier !== undefined) {
    for (const q of mine) {
      const ms = (q.json?.messages ?? []) as Array<{ role: string; content: string }>;
      const at = ms.findIndex((m) => m.role === "user" && m.content === earlier);
      if (at >= 0) expect(ms[at + 1]?.role, "what follows the previous turn's prompt").toBe("assistant");
    }
  }
  let result: { stop_reason: string; result: string; is_error: boolean };
  try {
    result = JSON.parse(r.stdout.trim().split("\n").pop() ?? "") as typeof result;
  } catch {
    throw new Error(`no result object from -p (exit ${r.code}); stderr:\n${r.stderr.slice(-800)}`);
  }
  expect(result.stop_reason, `stop reason (error: ${JSON.stringify(result).slice(0, 300)})`).toBe(want.stop);
  expect(r.code).toBe(want.stop === "completed" ? 0 : 1);
  expect(result.is_error).toBe(want.stop !== "completed");
  for (const [path, content] of Object.entries(want.files ?? {})) expect(readFileSync(join(env.root, path), "utf8"), path).toBe(content);
  for (const path of ["canary.txt", ...(want.absent ?? [])]) expect(existsSync(join(env.root, path)), `${path} must not exist`).toBe(false);
  for (const s of want.resultIncludes ?? []) expect(result.result).toContain(s);
  for (const s of want.resultExcludes ?? []) expect(result.result).not.toContain(s);
  for (const s of want.stderrIncludes ?? []) expect(r.stderr).toContain(s);
  if (want.toolResultIncludes !== undefined) {
    const tools = mine.flatMap((q) => (q.json?.messages ?? []) as Array<{ role: string; content: string }>).filter((m) => m.role === "tool").map((m) => m.content);
    expect(tools.join("\n")).toContain(want.toolResultIncludes);
  }
  for (const s of want.assistantExcludes ?? []) {
    const said = mine.flatMap((q) => (q.json?.messages ?? []) as Array<{ role: string; content: string | null }>).filter((m) => m.role === "assistant").map((m) => m.content ?? "");
    expect(said.filter((t) => t.includes(s)), `assistant messages holding ${JSON.stringify(s.slice(0, 40))}`).toEqual([]);
  }
  if (want.maxRequests !== undefined) expect(mine.length).toBeLessThanOrEqual(want.maxRequests);
  if (want.rawKept !== undefined) {
    const folder = join(env.home, "sessions", readdirSync(join(env.home, "sessions"))[0]);
    const lines = readdirSync(folder).filter((f) => f.endsWith(".jsonl")).flatMap((f) => readFileSync(join(folder, f), "utf8").split("\n").filter(Boolean));
    expect(lines.map((l) => JSON.parse(l) as { t: string; raw?: string }).filter((r) => r.t === "raw-arguments").map((r) => r.raw)).toContain(want.rawKept);
  }
}

for (const fam of families) {
  describe.concurrent(`real DeepSeek failures: ${fam.family}`, () => {
    for (const c of fam.cases) {
      it(`${c.id} (${c.payload}, ${c.model}) is survived: the right effects, a true stop reason, an accepted next request, and -c continues`, async () => {
        const sim = await startSimulator({ apiKey: "sk-test-cli" });
        const env = cliEnv(sim.url, c.files);
        const settings = join(env.home, "corpus-settings.json");
        writeFileSync(settings, JSON.stringify({ ...c.settings, permissions: { allow: ["Write", "Edit", "Bash"] } }));
        try {
          await phase(sim, env, ["-p", c.prompt, "--output-format", "json", "--settings", settings], c.replies, c.expect, c, c.contextLimitChars);
          const next = c.continue ?? { prompt: "Thanks. One more line, please.", replies: [{ content: "Continuing." }], expect: { stop: "completed" } };
          await phase(sim, env, ["-c", "-p", next.prompt, "--output-format", "json", "--settings", settings], next.replies, next.expect, undefined, c.contextLimitChars, c.prompt);
        } finally {
          env.cleanup();
          await sim.close();
        }
      });
    }
  });
}

