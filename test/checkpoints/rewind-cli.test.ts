// `deepcode rewind` from the shell, and what comes after it: the files as they were, the
// conversation cut at that turn, the next `-c` request a byte extension of that turn's last
// request (so it hits the cache), and the later turns kept in the transcript, marked.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { chmodSync, cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cliRig, type CliRig } from "../e2e/helpers.js";
import { chatBodies } from "../helpers/extension.js";
import { ALLOW, turnScript } from "./helpers.js";

let rig: CliRig | undefined;
/** The five turns, run once by the real CLI and kept (project, home, the simulator's request
 *  count) so each test starts from that very state: five `-p` runs per test were most of this
 *  file's time. */
let five: { rig: CliRig; id: string; saved: string; requests: number } | undefined;
afterEach(async () => {
  if (rig !== five?.rig) await rig?.close();
  rig = undefined;
});
afterAll(async () => {
  await five?.rig.close();
  if (five) rmSync(five.saved, { recursive: true, force: true });
});

/** A copy of `from` at `to` with every entry's mode (cpSync leaves a folder's to the umask on
 *  some Node versions, and the store's modes are asserted). */
function copyTree(from: string, to: string): void {
  cpSync(from, to, { recursive: true, preserveTimestamps: true });
  const walk = (rel: string): void => {
    chmodSync(join(to, rel), statSync(join(from, rel)).mode & 0o7777);
    if (statSync(join(from, rel)).isDirectory()) for (const name of readdirSync(join(from, rel))) walk(join(rel, name));
  };
  walk("");
}

// Each turn writes fK.txt and appends a line to shared.txt.
beforeAll(async () => {
  const r5 = await cliRig(turnScript(), { "shared.txt": "line0\n" });
  for (let k = 1; k <= 5; k++) {
    const r = await r5.run(["-p", ...(k > 1 ? ["-c"] : []), `turn ${k}`, ...ALLOW, "--output-format", "json"]);
    expect(r.code).toBe(0);
  }
  const sessions = readdirSync(join(r5.env.home, "sessions"), { recursive: true }).map(String).filter((f) => f.endsWith(".jsonl"));
  expect(sessions).toHaveLength(1);
  const saved = mkdtempSync(join(tmpdir(), "deepcode-five-turns-"));
  copyTree(r5.env.root, join(saved, "root"));
  copyTree(r5.env.home, join(saved, "home"));
  five = { rig: r5, id: /([^/]+)\.jsonl$/.exec(sessions[0])![1], saved, requests: r5.sim.requests.length };
  // Above the global hook limit: every test waits on these five runs, and on a machine running
  // another suite beside this one they have taken over 180 s.
}, 600_000);

/** The session of five turns as it was right after them: the project and home are put back in
 *  place, at the same paths (the session folder is keyed by the project's path), and the
 *  simulator forgets later requests. */
function fiveTurns(): string {
  for (const part of ["root", "home"] as const) {
    rmSync(five!.rig.env[part], { recursive: true, force: true });
    copyTree(join(five!.saved, part), five!.rig.env[part]);
  }
  five!.rig.sim.requests.length = five!.requests;
  rig = five!.rig;
  return five!.id;
}

const read = (p: string) => readFileSync(join(rig!.env.root, p), "utf8");

describe("deepcode rewind", () => {
  it("goes back to the end of turn 2 of 5: files and conversation, and the next request extends turn 2's and hits the cache", async () => {
    const id = fiveTurns();
    const r = await rig!.run(["rewind", "--session", id, "--turn", "2"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/f5\.txt\s+removed \(created in turn 5\)/);
    expect(r.stdout).toMatch(/shared\.txt\s+restored \(−3 \+0 lines\)/);
    expect(r.stdout).toContain("conversation rewound to the end of turn 2: 3 later turns left it");
    expect(read("shared.txt")).toBe("line0\nline1\nline2\n");
    expect(["f1.txt", "f2.txt", "f3.txt", "f4.txt", "f5.txt"].map((f) => existsSync(join(rig!.env.root, f)))).toEqual([true, true, false, false, false]);

    const before = rig!.sim.requests.filter((q) => q.usage);
    expect(before).toHaveLength(10);
    const turn2 = before[3]; // turn 1: requests 0–1, turn 2: 2–3
    const next = await rig!.run(["-p", "-c", "turn 6", ...ALLOW]);
    expect(next.code).toBe(0);
    expect(next.stderr).not.toMatch(/unexpected cache miss|cache-divergence/);
    const after = rig!.sim.requests.filter((q) => q.usage);
    const first6 = after[10];
    const b2 = JSON.parse(turn2.body) as { messages: unknown[] };
    const b6 = JSON.parse(first6.body) as { messages: Array<{ role: string; content: string }> };
    expect(b6.messages.slice(0, b2.messages.length)).toEqual(b2.messages);
    expect(b6.messages[b2.messages.length]).toMatchObject({ role: "assistant", content: "done 2" });
    expect(first6.usage!.prompt_cache_hit_tokens).toBeGreaterThanOrEqual(Math.floor(turn2.usage!.prompt_tokens / 64) * 64);
    // The model is told, at the tail of the first turn after the rewind.
    expect(b6.messages.some((m) => m.role === "user" && m.content.includes("The person rewound the conversation and the files to the end of turn 2"))).toBe(true);
    // The transcript keeps the rewound turns, marked.
    const file = join(rig!.env.home, "sessions", readdirSync(join(rig!.env.home, "sessions"))[0], `${id}.jsonl`);
    const records = readFileSync(file, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as { t: string; turn?: number; m?: { content?: string } });
    expect(records.filter((x) => x.t === "turn").map((x) => x.turn)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(records.filter((x) => x.t === "rewind")).toEqual([expect.objectContaining({ turn: 2, reason: "rewind to turn 2" })]);
    expect(records.some((x) => x.t === "msg" && x.m?.content === "turn 4")).toBe(true);
  });

  it("--conversation leaves the files and says so to the model; --files leaves the conversation", async () => {
    const id = fiveTurns();
    const c = await rig!.run(["rewind", "--session", id, "--turn", "3", "--conversation"]);
    expect(c.code).toBe(0);
    expect(c.stdout).toContain("files are as they are now: turns 4, 5 changed some (/rewind 3 files puts them back)");
    expect(read("shared.txt")).toBe("line0\nline1\nline2\nline3\nline4\nline5\n");
    const f = await rig!.run(["rewind", "--session", id, "--turn", "1", "--files"]);
    expect(f.code).toBe(0);
    expect(read("shared.txt")).toBe("line0\nline1\n");
    expect(f.stdout).not.toContain("conversation rewound");
    const next = await rig!.run(["-p", "-c", "turn 6", ...ALLOW]);
    expect(next.code).toBe(0);
    const b = chatBodies(rig!.sim.requests).at(-2)!;
    const users = b.messages.filter((m) => m.role === "user").map((m) => String(m.content));
    expect(users.filter((u) => /^turn \d$/.test(u))).toEqual(["turn 1", "turn 2", "turn 3", "turn 6"]);
    const note = users.find((u) => u.startsWith("[deepcode] Context"))!;
    expect(note).toContain("the files were NOT put back");
    expect(note).toContain("The person put the files back as they were after turn 1");
  });

  it("keeps a file changed on disk since, exits 1, and overwrites it with --force", async () => {
    const id = fiveTurns();
    writeFileSync(join(rig!.env.root, "shared.txt"), "my own edit\n");
    const r = await rig!.run(["rewind", "--session", id, "--turn", "4", "--files"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/shared\.txt\s+kept: changed on disk since \(--force overwrites\)/);
    expect(r.stdout).toMatch(/f5\.txt\s+removed/);
    expect(r.stderr).toContain("1 file(s) changed on disk since and were kept: --force overwrites them");
    expect(read("shared.txt")).toBe("my own edit\n");
    const forced = await rig!.run(["rewind", "--session", id, "--turn", "4", "--files", "--force"]);
    expect(forced.code).toBe(0);
    expect(read("shared.txt")).toBe("line0\nline1\nline2\nline3\nline4\n");
  });

  it("keeps its store beside the session: 0700 folder, 0600 files, one object per distinct content", async () => {
    const id = fiveTurns();
    const dir = join(rig!.env.home, "sessions", readdirSync(join(rig!.env.home, "sessions"))[0], `${id}.checkpoints`);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, "objects")).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, "journal")).mode & 0o777).toBe(0o600);
    const objects = readdirSync(join(dir, "objects"));
    for (const o of objects) expect(statSync(join(dir, "objects", o)).mode & 0o777).toBe(0o600);
    // shared.txt before each of the 5 turns: 5 distinct contents; the new files were absent.
    expect(objects).toHaveLength(5);
  });

  it("changes nothing and exits 1 for a turn the conversation cannot go back to, past the last one or the last one itself", async () => {
    const id = fiveTurns();
    const before = read("shared.txt");
    for (const args of [["--turn", "9"], ["--turn", "5"], ["--turn", "9", "--files"], ["--turn", "9", "--conversation"]]) {
      const r = await rig!.run(["rewind", "--session", id, ...args]);
      expect({ args, code: r.code }).toEqual({ args, code: 1 });
      expect(r.stdout + r.stderr).toMatch(/not rewound/);
      expect(read("shared.txt")).toBe(before);
      expect(existsSync(join(rig!.env.root, "f5.txt"))).toBe(true);
    }
    // Nothing was said to the model either: the next turn's tail has no rewind note.
    await rig!.run(["-p", "-c", "turn 6", ...ALLOW]);
    const last = chatBodies(rig!.sim.requests).at(-1) as { messages: Array<{ role: string; content: string }> };
    expect(last.messages.some((m) => m.role === "user" && /The person (rewound|put the files back)/.test(m.content))).toBe(false);
  });

  it("still rewinds the conversation with file checkpoints off, and refuses (exit 1) to put files back", async () => {
    rig = await cliRig(turnScript(), { "shared.txt": "line0\n" });
    writeFileSync(join(rig.env.home, "settings.json"), JSON.stringify({ checkpoints: { enabled: false } }));
    for (let k = 1; k <= 3; k++) expect((await rig.run(["-p", ...(k > 1 ? ["-c"] : []), `turn ${k}`, ...ALLOW])).code).toBe(0);
    const id = /([^/]+)\.jsonl$/.exec(readdirSync(join(rig.env.home, "sessions"), { recursive: true }).map(String).find((f) => f.endsWith(".jsonl"))!)![1];
    const files = await rig.run(["rewind", "--session", id, "--turn", "1"]);
    expect(files.code).toBe(1);
    expect(files.stdout + files.stderr).toContain("file checkpoints are off");
    const conv = await rig.run(["rewind", "--session", id, "--turn", "1", "--conversation"]);
    expect(conv.code).toBe(0);
    expect(conv.stdout).toContain("conversation rewound to the end of turn 1: 2 later turns left it");
    expect(read("shared.txt")).toBe("line0\nline1\nline2\nline3\n");
  });

  it("answers bad arguments with a usage error", async () => {
    rig = await cliRig({ default: { content: "x" } });
    expect((await rig.run(["rewind", "--turn", "1"])).stderr).toContain("deepcode rewind needs --session ID");
    expect((await rig.run(["rewind", "--session", "x", "--turn", "two"])).code).toBe(2);
    expect((await rig.run(["rewind", "--session", "x", "--turn", "1", "--files", "--conversation"])).stderr).toContain("--files or --conversation, not both");
    const missing = await rig.run(["rewind", "--session", "20260101-000000-abcdef", "--turn", "1"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no session '20260101-000000-abcdef'/);
  });
});
