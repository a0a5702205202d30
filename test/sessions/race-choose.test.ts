// Two `-c` at the same moment: the one that loses the lock chooses again and passes over the
// session it lost, even when the lock file looked free when it looked (a holder between its
// open and its write on a loaded machine). A CI run saw `-c` fail "in use" three times over.
import { describe, expect, it } from "vitest";
import { openChosen } from "../../src/cli/session-pick.js";
import { SessionBusyError } from "../../src/core/session/lock.js";
import type { SessionStore } from "../../src/core/session/store.js";

/** A store whose lock files always look free (the blind moment), newest first. */
function blindStore(ids: string[]): SessionStore {
  return {
    latest: (_skipped: unknown, o: { lost?: ReadonlySet<string> } = {}) => {
      const id = ids.find((x) => !o.lost?.has(x));
      return id ? { id, messages: 1 } : undefined;
    },
    holder: () => undefined,
    lockFileOf: (id: string) => `/tmp/${id}.lock`,
  } as unknown as SessionStore;
}

const busy = (id: string): SessionBusyError => new SessionBusyError(id, { pid: 1, host: "here", started: "now" }, `/tmp/${id}.lock`);

describe("-c that loses the race for a session", () => {
  it("continues the next session not taken, and says so", async () => {
    const said: string[] = [];
    const opened = await openChosen(blindStore(["s2", "s1"]), { continue: true }, (m) => said.push(m), {
      resume: async (id) => {
        if (id === "s2") throw busy("s2");
        return `resumed ${id}`;
      },
      start: async () => "started",
    });
    expect(opened).toBe("resumed s1");
    expect(said).toEqual(["session s2 was taken by another deepcode as this one opened it; choosing again"]);
  });

  it("chooses again when the lock kept changing under several starting at once", async () => {
    const opened = await openChosen(blindStore(["s2", "s1"]), { continue: true }, () => undefined, {
      resume: async (id) => {
        if (id === "s2") throw new Error("could not take the lock /tmp/s2.lock: it keeps changing (another deepcode is starting on this session)");
        return `resumed ${id}`;
      },
      start: async () => "started",
    });
    expect(opened).toBe("resumed s1");
  });

  it("chooses again when the session was taken between choosing it and checking its holder", async () => {
    // latest() saw s2 free; by the holder check another deepcode had it (a CI run on Node 22).
    const store = { ...blindStore(["s2", "s1"]), holder: (id: string) => (id === "s2" ? { pid: 1, host: "here", started: "now" } : undefined) } as unknown as SessionStore;
    const said: string[] = [];
    const opened = await openChosen(store, { continue: true }, (m) => said.push(m), { resume: async (id) => `resumed ${id}`, start: async () => "started" });
    expect(opened).toBe("resumed s1");
    expect(said).toEqual(["session s2 was taken by another deepcode as this one opened it; choosing again"]);
  });

  it("starts a new session when every earlier one was taken", async () => {
    const opened = await openChosen(blindStore(["s1"]), { continue: true }, () => undefined, {
      resume: async (id) => {
        throw busy(id);
      },
      start: async () => "started",
    });
    expect(opened).toBe("started");
  });

  it("still fails for -r ID: the person named that session", async () => {
    await expect(openChosen(blindStore(["s1"]), { resume: "s1" }, () => undefined, { resume: async (id) => Promise.reject(busy(id)), start: async () => "started" })).rejects.toThrow(/in use by deepcode/);
  });
});
