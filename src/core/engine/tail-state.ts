// What the volatile tail has told the model since the prefix was built, so that each turn's
// `context.tail` says only what is new: the instruction sections as the model last heard them,
// the tools announced late (with the turn of each, which a rewind needs), and the files already
// reported changed on disk. One per engine; the notes themselves are built in tail.ts.

import type { ReadRecord, RegisteredTool, SystemSection, TailNote, ToolDefinition } from "../../contract/index.js";
import { changedFiles, lateTools, sectionChanges } from "./tail.js";

export class TailState {
  /** The sections as the model last heard them: the prefix's, then each tail note's. */
  sections: SystemSection[] = [];
  /** The sections the current prefix was built from (what a rewind compares with again). */
  private prefixSections: SystemSection[] = [];
  /** Tools announced at the tail (not in the prefix) → the turn each was announced in. */
  private readonly announced = new Map<string, number>();
  private readonly notified = new Map<string, number>();

  /** A prefix was built from the current sections (session start, first request, reload). A
   *  reload's prefix holds every registered tool, so nothing stays announced. */
  prefixBuilt(reload = false): void {
    this.prefixSections = this.sections;
    if (reload) this.announced.clear();
  }

  /** A resumed session: the prefix's sections and what its transcript announced. */
  restore(sections: SystemSection[], announced: ReadonlySet<string>, announcedIn: ReadonlyMap<string, number>): void {
    this.sections = sections;
    this.prefixSections = sections;
    for (const t of announced) this.announced.set(t, announcedIn.get(t) ?? 0);
  }

  /** This turn's notes: changed sections (`fresh` become the ones heard), late tools, files
   *  changed on disk. `announced` lists the tools announced now (for the transcript). */
  notes(o: { fresh: SystemSection[]; registered: readonly RegisteredTool[]; inPrefix: readonly ToolDefinition[]; reads: ReadonlyMap<string, ReadRecord>; root: string; turn: number }): { notes: TailNote[]; announced: string[] } {
    const notes = sectionChanges(this.sections, o.fresh);
    this.sections = o.fresh;
    const late = lateTools(o.registered, o.inPrefix, new Set(this.announced.keys()));
    if (late.note) notes.push(late.note);
    for (const n of late.names) this.announced.set(n, o.turn);
    const changed = changedFiles(o.reads, this.notified, o.root);
    if (changed) notes.push(changed);
    return { notes, announced: late.names };
  }

  /** The conversation was cut back to the end of `turn`: what later turns announced is gone
   *  with them, and the next turn compares with the prefix's own sections again. */
  rewindTo(turn: number): void {
    for (const [tool, t] of this.announced) if (t > turn) this.announced.delete(tool);
    this.sections = this.prefixSections;
  }
}
