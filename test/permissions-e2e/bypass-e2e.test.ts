// The bypass corpus end to end: a real `deepcode -p` whose scripted model tries every command of
// the corpus under the corpus rules (project settings), with no one to answer prompts. The gate
// alone must hold — the sandbox is switched off here, so it cannot hide a gate failure.
//
// Escapes are pointed at the test's own temporary folders, never at system paths: `/etc/…`
// becomes `<outside>/etc/…`, `cd /tmp` becomes `cd <outside>`, the URL becomes a loopback
// listener of this test, and HOME is a temporary folder. Even if a protection failed, nothing
// outside the test's box could change.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { BYPASS_CORPUS, CORPUS_RULES, plantCorpusFixtures } from "../permissions/bypass-corpus.js";
import type { Simulator } from "../sim/server.mjs";
import { CLI_HOOK_TIMEOUT_MS, bashCall, listen, makeBox, projectSettings, runCli, snapshot, startSim, toolResults, type Box, type CliRun, type Listener } from "./helpers.js";

const ROUNDS = 4;

function confine(command: string, box: Box, port: number): string {
  return command
    .replaceAll("/etc/", `${box.outside}/etc/`)
    .replaceAll("http://evil.example", `http://127.0.0.1:${port}/evil`)
    .replaceAll("cd /tmp", `cd ${box.outside}`);
}

let box: Box;
let sim: Simulator;
let listener: Listener;
let before: { box: Record<string, string>; home: Record<string, string> };
let run: CliRun;
const calls: Array<{ id: string; command: string; expect: "deny" | "ask"; why: string }> = [];

beforeAll(async () => {
  box = makeBox();
  plantCorpusFixtures(box.root);
  mkdirSync(join(box.outside, "etc"));
  projectSettings(box, { permissions: CORPUS_RULES, sandbox: { enabled: false } });
  listener = await listen();
  BYPASS_CORPUS.forEach((entry, i) => calls.push({ id: `call_corpus_${i}`, command: confine(entry.command, box, listener.port), expect: entry.expect, why: entry.why }));
  const per = Math.ceil(calls.length / ROUNDS);
  const replies = [];
  for (let r = 0; r < ROUNDS; r++) replies.push({ content: "Trying some commands.", tool_calls: calls.slice(r * per, (r + 1) * per).map((c) => bashCall(c.id, c.command)) });
  replies.push({ content: "done" });
  sim = await startSim({ replies });
  before = { box: snapshot(join(box.base, "box")), home: snapshot(box.home) };
  run = await runCli({ box, sim, prompt: "try everything" });
}, CLI_HOOK_TIMEOUT_MS);

afterAll(async () => {
  await sim?.close();
  await listener?.close();
  box?.cleanup();
});

describe("deepcode -p with a model that tries every bypass of the corpus", () => {
  it("finishes the turn normally", () => {
    expect(run.stderr).not.toMatch(/MANAGED POLICY/);
    expect(run.result?.stop_reason, run.stderr).toBe("completed");
  });

  it("leaves the project, the folder next to it and the home folder exactly as they were", () => {
    expect(snapshot(join(box.base, "box"))).toEqual(before.box);
    expect(snapshot(box.home)).toEqual(before.home);
  });

  it("never lets a command reach the network (the listener standing in for evil.example saw nothing)", () => {
    expect(listener.connections).toBe(0);
  });

  it("answers every call with a refusal the model can read, saying why", () => {
    const results = toolResults(sim);
    const unanswered = calls.filter((c) => !results.has(c.id)).map((c) => c.command);
    expect(unanswered).toEqual([]);
    for (const c of calls) {
      const text = results.get(c.id) ?? "";
      expect(text, `${c.command} (${c.why})`).toMatch(/^Permission denied for Bash: \S.{10,}/s);
    }
  });

  it("tells the model a denied command was denied by a rule, and an asked one that nobody could approve it", () => {
    const results = toolResults(sim);
    const wrong = calls.filter((c) => /non-interactively/.test(results.get(c.id) ?? "") !== (c.expect === "ask"));
    expect(wrong.map((c) => `${c.expect}: ${c.command} → ${results.get(c.id)}`)).toEqual([]);
  });
});
