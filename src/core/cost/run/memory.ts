// What the cost engine remembers of a session between its turns, besides their usage: the class
// of a plan under way, and the last request an earlier process made.
//
// One class per plan (issue 39). A plan is the planning turn for a task, the revisions the person
// asks for, and the turn that carries it out after "go". Their prompts are the task, the notes
// and a fixed "carry it out" sentence, which the classifier would read as three different tasks
// (the same plan was `routine` at /plan and `architecture` at go). So from the first planning turn
// (a turn whose profile has `purpose: "plan"`) until the first turn after the planning that is
// not one, every estimate of the session takes the class the task got at /plan. A plan the
// person drops leaves that class on the next prompt's estimate only (that turn ends the plan).
//
// An earlier process's last request (a resumed session, `-c`): this process has seen no usage
// yet, so without the ledger the estimate would take the whole log as uncached in its high case.
// When the session's last main-agent request is in the ledger and recent (WARM_MS), the log is
// taken as cached in both ends, as a request of this process would have left it.

import { classifyTask, type LedgerRecord, type TaskClass } from "../index.js";

export interface PlanMemory {
  /** A planning turn ran and the plan is not carried out yet. */
  planning?: boolean;
  planClass?: TaskClass;
}

/** The class a prompt's turn counts as in this session now. */
export function classFor(m: PlanMemory, prompt: string): TaskClass {
  return m.planning && m.planClass ? m.planClass : classifyTask(prompt);
}

/** Notes a main turn's start (its profile's purpose); returns the class it counts as. */
export function noteTurn(m: PlanMemory, prompt: string, purpose: string | undefined): TaskClass {
  const cls = classFor(m, prompt);
  if (purpose === "plan") {
    if (!m.planning) m.planClass = cls;
    m.planning = true;
    return m.planClass ?? cls;
  }
  m.planning = false;
  m.planClass = undefined;
  return cls;
}

/** How long after an earlier process's request its context is taken as still cached. The
 *  server keeps a prefix for hours at best; an hour stays on the safe side of that. */
export const WARM_MS = 60 * 60 * 1000;

/** Whether the session's last main-agent request in `records` is recent enough at `now` for
 *  the log to be taken as cached. */
export function recentlyCached(records: readonly LedgerRecord[], sessionId: string, now: Date): boolean {
  let last: LedgerRecord | undefined;
  for (const r of records) if (r.session === sessionId && r.agent === undefined && (!last || r.time >= last.time)) last = r;
  if (!last) return false;
  const age = now.getTime() - Date.parse(last.time);
  return Number.isFinite(age) && age >= 0 && age <= WARM_MS;
}
