import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SessionStore } from "../../src/core/session/store.js";

let home = "";
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe("which session -c continues", () => {
  it("skips a session with nothing in it, but not one killed during its first turn", () => {
    home = mkdtempSync(join(tmpdir(), "deepcode-store-"));
    const store = new SessionStore(home, "/proj");
    const killed = store.writer("a-killed");
    killed.append({ t: "session", id: "a-killed", root: "/proj", model: "m", created: "2026-11-30T10:00:00Z", version: "t" });
    killed.append({ t: "msg", m: { role: "user", content: "fix the build" } });
    killed.close();
    const empty = store.writer("b-empty");
    empty.append({ t: "session", id: "b-empty", root: "/proj", model: "m", created: "2026-11-30T11:00:00Z", version: "t" });
    empty.close();
    const later = new Date(Date.now() + 60_000);
    utimesSync(store.fileOf("b-empty"), later, later);
    expect(store.list().map((s) => s.id)).toEqual(["b-empty", "a-killed"]);
    expect(store.latest()).toMatchObject({ id: "a-killed", turns: 0, messages: 1, firstPrompt: "fix the build" });
  });
});
