// The person's answers about projects: `<home>/trust.json` (0600, folder 0700), one entry per
// project root (its real path): trusted or declined, with the digest of what it held then.
// A store that cannot be read is no answer at all (every project untrusted), said loudly.

import { join } from "node:path";
import { readProjectsFile, updateProjectsFile, type ProjectsFile, type StoreFailure } from "../../lib/project-store.js";

export interface TrustRecord {
  trusted: boolean;
  digest: string;
  /** When the person answered (ISO time). */
  at: string;
}

type TrustFile = ProjectsFile<TrustRecord>;

export class TrustStore {
  readonly file: string;
  /** Why the store could not be read, if it could not. */
  problem?: string;
  private data?: TrustFile;

  constructor(readonly home: string) {
    this.file = join(home, "trust.json");
  }

  get(root: string): TrustRecord | undefined {
    const r = this.load().projects[root];
    return r && typeof r.trusted === "boolean" && typeof r.digest === "string" ? r : undefined;
  }

  set(root: string, trusted: boolean, digest: string, now = new Date()): void {
    this.load();
    if (this.problem) throw new Error(`${this.file}: ${this.problem}; fix or remove it before trusting a project`);
    this.update((data) => void (data.projects[root] = { trusted, digest, at: now.toISOString() }));
  }

  forget(root: string): boolean {
    if (!(root in this.load().projects)) return false;
    this.update((data) => void delete data.projects[root]);
    return true;
  }

  /** Changed as the file is now, under its lock (another deepcode may have answered since this
   *  one read it: its answer is kept). */
  private update(change: (data: TrustFile) => void): void {
    const refuse = (f: StoreFailure): string => `${f.kind === "unreadable" ? `cannot read (${f.code})` : `malformed (${f.message})`}; fix or remove it`;
    this.data = updateProjectsFile<TrustRecord>(this.home, this.file, "a trust store", change, refuse);
  }

  private load(): TrustFile {
    if (this.data) return this.data;
    const { data, failure } = readProjectsFile<TrustRecord>(this.file, "a trust store");
    if (failure) this.problem = failure.kind === "unreadable" ? `cannot read (${failure.code})` : `malformed (${failure.message}); every project counts as untrusted`;
    return (this.data = data);
  }
}
