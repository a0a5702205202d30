// The Claude Code transcript as a view of deepcode's session file (mods/hooks/transcript.ts):
// converted as the file grows, a torn last line waited for, a rewind and a compaction kept as
// Claude Code keeps them (a branch of the parentUuid chain; a compact_boundary).
import { afterEach, describe, expect, it } from "vitest";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { forgetClaudeTranscript, syncClaudeTranscript } from "../../mods/hooks/transcript.js";

let dir = "";
afterEach(() => {
  forgetClaudeTranscript(dir, "s1");
  rmSync(dir, { recursive: true, force: true });
});

const line = (r: object): string => `${JSON.stringify(r)}\n`;
const user = (content: string) => line({ t: "msg", m: { role: "user", content } });
const reply = (content: string) => line({ t: "msg", m: { role: "assistant", content } });
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- records are read field by field
const records = (path: string): any[] => readFileSync(path, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));

describe("the Claude Code transcript", () => {
  it("follows the session file as it grows, and waits for a torn last line to be whole", () => {
    dir = mkdtempSync(join(tmpdir(), "cc-transcript-"));
    const source = join(dir, "s1.jsonl");
    writeFileSync(source, line({ t: "session", id: "s1", root: "/p", model: "deepseek-chat", created: "x", version: "0.1.0" }) + user("hello"));
    const sync = () => syncClaudeTranscript(dir, "s1", source, { cwd: "/p", agent: false });
    const { path, error } = sync();
    expect(error).toBeUndefined();
    expect(records(path).map((r) => r.type)).toEqual(["user"]);
    appendFileSync(source, reply("hi there") + line({ t: "turn", turn: 1 }) + '{"t":"msg","m":{"role":"user","con');
    sync();
    expect(records(path).map((r) => [r.type, r.message.content])).toEqual([["user", "hello"], ["assistant", [{ type: "text", text: "hi there" }]]]);
    expect(records(path)[1]).toMatchObject({ version: "0.1.0", message: { model: "deepseek-chat", stop_reason: "end_turn" } });
    appendFileSync(source, 'tent":"again"}}\n');
    sync();
    expect(records(path).map((r) => r.message.content).pop()).toBe("again");
  });

  it("keeps a rewind as a branch back to the end of that turn, and a compaction as a boundary", () => {
    dir = mkdtempSync(join(tmpdir(), "cc-transcript-"));
    const source = join(dir, "s1.jsonl");
    writeFileSync(
      source,
      line({ t: "session", id: "s1", root: "/p", model: "m", created: "x", version: "v" }) +
        user("one") + reply("first") + line({ t: "turn", turn: 1 }) +
        user("two") + reply("second") + line({ t: "turn", turn: 2 }) +
        line({ t: "rewind", turn: 1, reason: "/rewind", at: "x" }) + user("two again") +
        line({ t: "epoch", reason: "compaction", messages: [{ role: "user", content: "digest" }, { role: "assistant", content: "ok" }] }),
    );
    const r = records(syncClaudeTranscript(dir, "s1", source, { cwd: "/p", agent: false }).path);
    const firstReply = r.find((x) => x.type === "assistant" && x.message.content[0].text === "first");
    const rewind = r.find((x) => x.subtype === "informational");
    expect(rewind.parentUuid).toBe(firstReply.uuid);
    expect(r[r.indexOf(rewind) + 1]).toMatchObject({ type: "user", message: { content: "two again" }, parentUuid: rewind.uuid });
    const boundary = r.find((x) => x.subtype === "compact_boundary");
    expect(boundary.parentUuid).toBeNull();
    expect(r.slice(r.indexOf(boundary) + 1).map((x) => x.type)).toEqual(["user", "assistant"]);
  });

  it("is written anew when a process first touches it (no record twice after a resume)", () => {
    dir = mkdtempSync(join(tmpdir(), "cc-transcript-"));
    const source = join(dir, "s1.jsonl");
    writeFileSync(source, user("hello") + reply("hi"));
    const { path } = syncClaudeTranscript(dir, "s1", source, { cwd: "/p", agent: false });
    forgetClaudeTranscript(dir, "s1"); // as a new process would start
    syncClaudeTranscript(dir, "s1", source, { cwd: "/p", agent: false });
    expect(records(path)).toHaveLength(2);
  });
});
