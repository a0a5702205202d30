// `-c` finds the latest session without parsing every session of the project: the folder's
// summary index (rebuilt when missing or stale, never the only truth) and the files' mtimes.
import { afterEach, describe, expect, it, vi } from "vitest";
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SessionStore } from "../../src/core/session/store.js";

let home: string | undefined;
afterEach(() => {
  if (home) rmSync(home, { recursive: true, force: true });
  home = undefined;
  vi.restoreAllMocks();
});

/** `n` sessions, oldest first, each with one prompt; returns the store and the ids. */
function sessions(n: number): { store: SessionStore; ids: string[] } {
  home = mkdtempSync(join(tmpdir(), "deepcode-index-"));
  const store = new SessionStore(home, "/project");
  mkdirSync(store.dir, { recursive: true });
  const ids: string[] = [];
  for (let k = 0; k < n; k++) {
    const id = `s${String(k).padStart(2, "0")}`;
    const lines = [
      { t: "session", id, root: "/project", model: "deepseek-flash", created: new Date(2026, 0, 1, 0, k).toISOString(), version: "test" },
      { t: "msg", m: { role: "user", content: `prompt ${k}` } },
      { t: "msg", m: { role: "assistant", content: `answer ${k}` } },
      { t: "turn", turn: 1, prompt: `prompt ${k}`, stopReason: "completed", usage: {}, costUsd: 0.001, at: "", durationMs: 1 },
    ];
    writeFileSync(store.fileOf(id), `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
    const t = new Date(2026, 0, 1, 0, k);
    utimesSync(store.fileOf(id), t, t);
    ids.push(id);
  }
  return { store, ids };
}

describe("finding the latest session", () => {
  it("reads only the newest session file for -c, not all twenty", () => {
    const { store, ids } = sessions(20);
    const load = vi.spyOn(store, "load");
    expect(store.latest()?.id).toBe(ids[19]);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("lists from the index once it is built, and reads again only a session whose file changed", () => {
    const { store, ids } = sessions(20);
    expect(store.list()).toHaveLength(20);
    const load = vi.spyOn(store, "load");
    expect(store.list().map((s) => s.id)).toEqual([...ids].reverse());
    expect(load).not.toHaveBeenCalled();
    // A session written since (size and mtime change) is read again, and its summary is new.
    appendFileSync(store.fileOf(ids[3]), `${JSON.stringify({ t: "turn", turn: 2, prompt: "more", stopReason: "completed", usage: {}, costUsd: 0.002, at: "", durationMs: 1 })}\n`);
    const later = new Date(2026, 0, 2);
    utimesSync(store.fileOf(ids[3]), later, later);
    const list = store.list();
    expect(load).toHaveBeenCalledTimes(1);
    expect(list[0]).toMatchObject({ id: ids[3], turns: 2 });
    expect(store.latest()?.id).toBe(ids[3]);
  });

  it("is never the only truth: a damaged or missing index is rebuilt from the files", () => {
    const { store, ids } = sessions(5);
    store.list();
    writeFileSync(join(store.dir, "index.json"), "{ not json");
    expect(store.latest()?.id).toBe(ids[4]);
    expect(store.list()).toHaveLength(5);
    rmSync(join(store.dir, "index.json"));
    expect(store.list().map((s) => s.firstPrompt)).toEqual(["prompt 4", "prompt 3", "prompt 2", "prompt 1", "prompt 0"]);
  });
});
