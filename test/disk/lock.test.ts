// A full disk as a session is opened: the error names the lock it could not write, no empty lock
// is left behind, and once space is back the session opens at once (nobody "holds" it).
import { describe, expect, it, vi } from "vitest";
vi.mock("node:fs", async (orig) => (await import("../helpers/full-disk.js")).mockFs(await orig()));
import { existsSync, readdirSync } from "node:fs";
import { disk } from "../helpers/full-disk.js";
import { SessionStore } from "../../src/core/session/store.js";
import { scratch } from "./scratch.js";

const t = scratch();
const store = (): SessionStore => new SessionStore("", "", t.dir());

describe("a session opened on a full disk", () => {
  it("fails naming the lock it could not write, and leaves no lock file", () => {
    const s = store();
    s.writer("s1").close();
    disk.fill();
    expect(() => s.writer("s1")).toThrow(`could not write the session lock ${s.lockFileOf("s1")}: no space left on device (ENOSPC)`);
    expect(existsSync(s.lockFileOf("s1"))).toBe(false);
    expect(readdirSync(s.dir).filter((f) => !f.endsWith(".jsonl"))).toEqual([]);
  });

  it("opens at once when space is back, with nobody said to hold it", () => {
    const s = store();
    disk.fill();
    expect(() => s.writer("s1")).toThrow(/ENOSPC/);
    disk.free();
    expect(s.holder("s1")).toBeUndefined();
    const w = s.writer("s1");
    w.append({ t: "msg", m: { role: "user", content: "one" } });
    w.close();
  });

  it("names the session file when the first record does not fit", () => {
    const s = store();
    const w = s.writer("s1");
    disk.fill();
    expect(() => w.append({ t: "msg", m: { role: "user", content: "one" } })).toThrow(`could not write the session file ${s.fileOf("s1")}: no space left on device (ENOSPC)`);
    disk.free();
    w.close();
  });
});
