// A damaged transcript can be continued: the real CLI, a session file damaged between runs,
// and the next `-c` judged by the API's history rules (the simulator enforces them) and by what
// deepcode says about the repair.
import { afterEach, describe, expect, it } from "vitest";
import { readFileSync, readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliRig, type CliRig, type Run } from "../e2e/helpers.js";
import type { Script } from "../sim/server.mjs";

let rig: CliRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

type Message = { role: string; content?: string | null };

/** A prompt "read" makes one Read call, then an answer; any other prompt is answered. */
const script: Script = {
  respond(json: { messages: Message[] }) {
    const m = json.messages;
    let i = m.length - 1;
    while (i >= 0 && !(m[i].role === "user" && !String(m[i].content).startsWith("[deepcode]"))) i--;
    const prompt = String(m[i]?.content ?? "").split("\n").pop() ?? "";
    const after = m.slice(i + 1).filter((x) => x.role === "assistant").length;
    if (prompt.startsWith("read") && after === 0) return { tool_calls: [{ name: "Read", arguments: { file_path: "a.txt" } }] };
    return { content: `answered: ${prompt}` };
  },
};

const dir = (): string => {
  const base = join(rig!.env.home, "sessions");
  return join(base, readdirSync(base)[0]);
};
const idOf = (r: Run): string => (JSON.parse(r.stdout.trim().split("\n").pop()!) as { session_id: string }).session_id;
const fileOf = (id: string): string => join(dir(), `${id}.jsonl`);

/** Replace the first line that `pick` chooses with garbage that keeps the line's start. */
function garble(id: string, pick: (line: string) => boolean): void {
  const lines = readFileSync(fileOf(id), "utf8").split("\n");
  const k = lines.findIndex(pick);
  expect(k).toBeGreaterThanOrEqual(0);
  lines[k] = `${lines[k].slice(0, 40)}\u0000\u0000garbled${lines[k].slice(60, 80)}`;
  writeFileSync(fileOf(id), lines.join("\n"));
}

async function session(): Promise<string> {
  rig = await cliRig(script, { "a.txt": "alpha\n" });
  const one = await rig.run(["-p", "--output-format", "json", "read a.txt please"]);
  expect(one.code).toBe(0);
  const two = await rig.run(["-p", "-c", "--output-format", "json", "second"]);
  expect(two.code).toBe(0);
  return idOf(one);
}

const lastBody = () => JSON.parse(rig!.sim.requests[rig!.sim.requests.length - 1].body) as { messages: Array<{ role: string; content: string | null; tool_calls?: unknown[] }> };

describe("a damaged transcript is repaired on load", () => {
  it("drops a damaged assistant tool call together with its results, says so, and the session goes on", async () => {
    const id = await session();
    garble(id, (l) => l.includes('"role":"assistant"') && l.includes("tool_calls"));
    const next = await rig!.run(["-p", "-c", "--output-format", "json", "third"]);
    expect(next.code).toBe(0);
    expect(idOf(next)).toBe(id);
    expect(next.stderr).toMatch(/line \d+ of .*\(a msg record, assistant\) was torn and skipped/);
    expect(next.stderr).toContain("1 tool result whose call was lost with a damaged line was dropped");
    expect(rig!.sim.requests.every((q) => q.status === 200)).toBe(true);
    const body = lastBody();
    expect(body.messages.filter((m) => m.role === "tool")).toHaveLength(0);
    expect(body.messages.filter((m) => m.role === "user" && !String(m.content).startsWith("[deepcode]")).map((m) => String(m.content).split("\n").pop())).toEqual(["read a.txt please", "second", "third"]);
    // Again: the same repair, the same bytes, a pure extension.
    const again = await rig!.run(["-p", "-c", "--output-format", "json", "fourth"]);
    expect(again.code).toBe(0);
    const body2 = lastBody();
    expect(body2.messages.slice(0, body.messages.length)).toEqual(body.messages);
  });

  it("goes on with a prefix built anew when the prefix line is damaged, keeps every message, and says so once", async () => {
    const id = await session();
    const lines = readFileSync(fileOf(id), "utf8").split("\n");
    // Every prefix record (the session-start one and the first request's) is damaged.
    writeFileSync(fileOf(id), lines.map((l) => (l.startsWith('{"t":"prefix"') ? `${l.slice(0, 30)}\u0000garbled` : l)).join("\n"));
    const next = await rig!.run(["-p", "-c", "--output-format", "json", "third"]);
    expect(next.code).toBe(0);
    expect(idOf(next)).toBe(id);
    expect(next.stderr).toMatch(/held the session's prefix .* the session goes on with the system prompt and tools as this deepcode builds them now, and keeps all \d+ messages/);
    const body = lastBody();
    expect(body.messages.filter((m) => m.role === "user" && !String(m.content).startsWith("[deepcode]")).map((m) => String(m.content).split("\n").pop())).toEqual(["read a.txt please", "second", "third"]);
    expect(body.messages.some((m) => m.role === "tool" && String(m.content).includes("alpha"))).toBe(true);
    // The rebuilt prefix was recorded: the next run neither rebuilds nor misses the cache.
    const again = await rig!.run(["-p", "-c", "--output-format", "json", "fourth"]);
    expect(again.code).toBe(0);
    expect(again.stderr).not.toContain("prefix");
    const body2 = lastBody();
    expect(body2.messages.slice(0, body.messages.length)).toEqual(body.messages);
  });

  it("-c does not keep choosing a session whose every line is unreadable: it goes to the latest one with messages", async () => {
    const id = await session();
    const other = await rig!.run(["-p", "--output-format", "json", "another session"]);
    const otherId = idOf(other);
    writeFileSync(fileOf(otherId), "\u0000\u0000\u0000 not json at all\n");
    const later = new Date(Date.now() + 60_000);
    utimesSync(fileOf(otherId), later, later);
    expect(statSync(fileOf(otherId)).mtimeMs).toBeGreaterThan(statSync(fileOf(id)).mtimeMs);
    const next = await rig!.run(["-p", "-c", "--output-format", "json", "third"]);
    expect(next.code).toBe(0);
    expect(idOf(next)).toBe(id);
  });
});
