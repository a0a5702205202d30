// Which stored session `-c`, `-r ID` and `--fork-session` open, in the REPL and in `-p` alike.
// A session has one writer (src/core/session/lock.ts): `-c` passes over sessions another
// deepcode is writing and says so; `-r ID` of such a session fails naming the process; with
// `--fork-session` either continues a copy of the session under a new id instead.

import type { SessionStore } from "../core/session/store.js";
import { SessionBusyError } from "../core/session/lock.js";

export interface SessionChoice {
  continue?: boolean;
  /** An id (the picker's choice included). */
  resume?: string;
  fork?: boolean;
}

/** The id to resume, or undefined for a new session. Throws SessionBusyError for `-r ID` of a
 *  session another process is writing (without --fork-session). */
export function chooseSession(store: SessionStore, c: SessionChoice, say: (m: string) => void, lost?: ReadonlySet<string>): string | undefined {
  let id = c.resume;
  if (!id && c.continue) {
    if (c.fork) id = store.latest(undefined, { held: true })?.id;
    else {
      const passed: string[] = [];
      id = store.latest((s, h) => passed.push(`${s.id} (pid ${h.pid} on ${h.host})`), { lost })?.id;
      if (passed.length) {
        say(`${passed.length === 1 ? "the latest session" : "the latest sessions"} ${passed.join(", ")} ${passed.length === 1 ? "is" : "are"} in use by another deepcode; ${id ? `continuing ${id}, the latest one not in use` : "starting a new one"} (--fork-session -c continues a copy of the latest instead)`);
        return id;
      }
    }
    if (!id) say("no earlier session in this directory; starting a new one");
  }
  if (!id) return undefined;
  if (c.fork) {
    const to = store.fork(id);
    say(`forked session ${id} as ${to}: this run continues the copy, the original stays as it was`);
    return to;
  }
  const holder = store.holder(id);
  if (holder) throw new SessionBusyError(id, holder, store.lockFileOf(id));
  return id;
}

/** Open what `chooseSession` picks. Two `-c` started at the same moment can both find the same
 *  session free; the one that loses the lock chooses again, passing over the session it lost
 *  (said), rather than failing — whatever the lock file looked like when it looked. */
export async function openChosen<E>(store: SessionStore, c: SessionChoice, say: (m: string) => void, open: { resume(id: string): Promise<E>; start(): Promise<E> }): Promise<E> {
  const lost = new Set<string>();
  for (let attempt = 0; ; attempt++) {
    let id: string | undefined;
    try {
      // Choosing is inside the race too: the session latest() saw free may be taken by the
      // time its holder is checked.
      id = chooseSession(store, c, say, lost);
      if (!id) return await open.start();
      return await open.resume(id);
    } catch (err) {
      // Busy, or its lock kept changing under several starting at once: for -c, choose again.
      const lostRace = err instanceof SessionBusyError || (err instanceof Error && err.message.startsWith("could not take the lock"));
      const taken = id ?? (err instanceof SessionBusyError ? err.id : undefined);
      if (!lostRace || !c.continue || c.resume || taken === undefined || attempt >= 5) throw err;
      lost.add(taken);
      say(`session ${taken} was taken by another deepcode as this one opened it; choosing again`);
    }
  }
}
