// The person's answers about projects: `<home>/trust.json` (0600, folder 0700), one entry per
// project root (its real path): trusted or declined, with the digest of what it held then.
// A store that cannot be read is no answer at all (every project untrusted), said loudly.

import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface TrustRecord {
  trusted: boolean;
  digest: string;
  /** When the person answered (ISO time). */
  at: string;
}

interface TrustFile {
  version: 1;
  projects: Record<string, TrustRecord>;
}

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
    const data = this.load();
    if (this.problem) throw new Error(`${this.file}: ${this.problem}; fix or remove it before trusting a project`);
    data.projects[root] = { trusted, digest, at: now.toISOString() };
    this.save(data);
  }

  forget(root: string): boolean {
    const data = this.load();
    if (!(root in data.projects)) return false;
    delete data.projects[root];
    this.save(data);
    return true;
  }

  private load(): TrustFile {
    if (this.data) return this.data;
    let text: string;
    try {
      text = readFileSync(this.file, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") this.problem = `cannot read (${(err as NodeJS.ErrnoException).code ?? String(err)})`;
      return (this.data = { version: 1, projects: {} });
    }
    try {
      const v = JSON.parse(text) as Partial<TrustFile>;
      if (typeof v !== "object" || v === null || typeof v.projects !== "object" || v.projects === null) throw new Error("not a trust store");
      return (this.data = { version: 1, projects: { ...v.projects } });
    } catch (err) {
      this.problem = `malformed (${(err as Error).message}); every project counts as untrusted`;
      return (this.data = { version: 1, projects: {} });
    }
  }

  private save(data: TrustFile): void {
    mkdirSync(this.home, { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, this.file);
    this.data = data;
  }
}
