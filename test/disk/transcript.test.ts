// A full disk under the session file: a record that does not fit leaves no torn line glued to
// the next one, and what failed is written once space is back, so a resumed session has every
// prompt it showed. And a transcript deleted mid-session is written again with each record once.
import { describe, expect, it, vi } from "vitest";
vi.mock("node:fs", async (orig) => (await import("../helpers/full-disk.js")).mockFs(await orig()));
import { appendFileSync, unlinkSync } from "node:fs";
import { disk } from "../helpers/full-disk.js";
import { SessionStore } from "../../src/core/session/store.js";
import { replay } from "../../src/core/session/replay.js";
import type { ChatMessage } from "../../src/contract/index.js";
import { chatBodies } from "../helpers/extension.js";
import { startHarness, type Harness } from "../helpers/harness.js";
import { testTools } from "../helpers/tools.js";
import { scratch } from "./scratch.js";

const t = scratch();
const store = (): SessionStore => new SessionStore("", "", t.dir());

const user = (content: string): ChatMessage => ({ role: "user", content });
const prompts = (s: SessionStore, id: string): string[] => replay(s.load(id)).messages.flatMap((m) => (m.role === "user" ? [String(m.content)] : []));

describe("a session file on a disk that fills up mid-session", () => {
  it("keeps every prompt once space is back, though the disk tore a record and refused the next", () => {
    const s = store();
    const w = s.writer("s1");
    w.append({ t: "msg", m: user("one") });
    disk.left = 10; // the next record tears after 10 bytes
    expect(() => w.append({ t: "msg", m: user("two") })).toThrow(/ENOSPC/);
    expect(() => w.append({ t: "msg", m: user("three") })).toThrow(/ENOSPC/); // still full
    disk.free();
    w.append({ t: "msg", m: user("four") });
    w.close();
    expect(prompts(s, "s1")).toEqual(["one", "two", "three", "four"]);
    expect(s.load("s1").torn).toBeUndefined();
  });

  it("writes a torn line's repairing newline before the next record even when the repair itself met a full disk", () => {
    const s = store();
    const w = s.writer("s1");
    w.append({ t: "msg", m: user("one") });
    appendFileSync(s.fileOf("s1"), '{"t":"msg","m":{"role":"us'); // another's write, torn
    disk.fill();
    expect(() => w.append({ t: "msg", m: user("two") })).toThrow(/ENOSPC/);
    disk.free();
    w.append({ t: "msg", m: user("three") });
    w.close();
    expect(prompts(s, "s1")).toEqual(["one", "two", "three"]);
  });

  it("writes what it still holds when it closes after space came back", () => {
    const s = store();
    const w = s.writer("s1");
    w.append({ t: "msg", m: user("one") });
    disk.fill();
    expect(() => w.append({ t: "msg", m: user("two") })).toThrow(/ENOSPC/);
    disk.free();
    w.close();
    expect(prompts(s, "s1")).toEqual(["one", "two"]);
  });
});

describe("a transcript deleted mid-session", () => {
  it("is written again with the prompt in flight once, so a resumed session sends it once", async () => {
    const h: Harness = t.track(await startHarness({ script: { default: { content: "ok" } }, tools: testTools(), allowAll: true }));
    await h.turn("one");
    unlinkSync(h.store.fileOf(h.engine.sessionId));
    await h.turn("two");
    const count = (ms: Array<Record<string, unknown>>, text: string): number => ms.filter((m) => m.role === "user" && String(m.content).endsWith(text)).length;
    expect(prompts(h.store, h.engine.sessionId).filter((p) => p.endsWith("two"))).toHaveLength(1);
    await h.resume();
    await h.turn("three");
    const sent = chatBodies(h.sim.requests).pop()!.messages;
    expect(count(sent, "one")).toBe(1);
    expect(count(sent, "two")).toBe(1);
  });
});
