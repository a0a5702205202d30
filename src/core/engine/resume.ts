// What a resumed session says about the repairs its load made (answerOrphans over replay's
// state), and the record that keeps a later resume from saying it again.

import type { SessionRecord } from "../session/store.js";
import type { Replayed } from "../session/replay.js";
import { plural } from "../cost/index.js";

export function repairNotes(state: Replayed, repaired: { dropped: number; recovered: number; answered: number }): { notes: string[]; record?: SessionRecord } {
  // What earlier resumes repaired and said already is repaired the same way, silently.
  const said = state.repaired;
  const dropped = repaired.dropped - said.dropped;
  const recovered = repaired.recovered - said.recovered;
  const answered = repaired.answered - said.answered;
  const notes: string[] = [];
  if (dropped > 0) notes.push(`${plural(dropped, "tool result")} whose call was lost with a damaged line ${dropped === 1 ? "was" : "were"} dropped (the API refuses a result without its call)`);
  if (recovered > 0) notes.push(`${plural(recovered, "tool call")} that finished before the last exit ${recovered === 1 ? "keeps its" : "keep their"} result`);
  if (answered > 0) notes.push(`${plural(answered, "tool call")} cut off by the last exit ${answered === 1 ? "was" : "were"} answered as interrupted`);
  if (dropped > 0 || recovered > 0 || answered > 0 || state.damagedLines.some((l) => !said.lines.includes(l))) {
    return { notes, record: { t: "repaired", lines: state.damagedLines, dropped: repaired.dropped, answered: repaired.answered, recovered: repaired.recovered } };
  }
  return { notes };
}
