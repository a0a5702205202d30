// The person's answers about a project's MCP servers: `<home>/mcp-approvals.json` (0600,
// folder 0700), keyed by the project's real path and the server's name, each with a digest of
// the server's configuration as written — a changed command, URL or environment asks again.
// Kept in deepcode's home, not the project: the project's files (and so its trust digest) do
// not change when the person answers. A store that cannot be read is no answer (every project
// server asks again), said once.

import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { JsonValue } from "../../src/contract/index.js";
import { canonicalJson } from "../../src/lib/json.js";

export interface Approval {
  allowed: boolean;
  digest: string;
  at: string;
}

interface ApprovalFile {
  version: 1;
  projects: Record<string, Record<string, Approval>>;
}

export class ApprovalStore {
  readonly file: string;
  readonly project: string;
  problem?: string;
  private data?: ApprovalFile;

  constructor(home: string, root: string) {
    this.file = join(home, "mcp-approvals.json");
    this.home = home;
    this.project = realOr(root);
  }

  private readonly home: string;

  /** The remembered answer for this server, if it was given for this exact configuration. */
  get(server: string, digest: string): Approval | undefined {
    const a = this.load().projects[this.project]?.[server];
    return a && a.digest === digest && typeof a.allowed === "boolean" ? a : undefined;
  }

  set(server: string, digest: string, allowed: boolean, now = new Date()): void {
    const data = this.load();
    if (this.problem) throw new Error(`${this.file}: ${this.problem}; fix or remove it to remember answers`);
    (data.projects[this.project] ??= {})[server] = { allowed, digest, at: now.toISOString() };
    mkdirSync(this.home, { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, this.file);
  }

  private load(): ApprovalFile {
    if (this.data) return this.data;
    let text: string;
    try {
      text = readFileSync(this.file, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") this.problem = `cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`;
      return (this.data = { version: 1, projects: {} });
    }
    try {
      const v = JSON.parse(text) as Partial<ApprovalFile>;
      if (typeof v !== "object" || v === null || typeof v.projects !== "object" || v.projects === null) throw new Error("not an approvals file");
      return (this.data = { version: 1, projects: { ...v.projects } });
    } catch (err) {
      this.problem = `is malformed (${(err as Error).message})`;
      return (this.data = { version: 1, projects: {} });
    }
  }
}

/** The digest of a configuration as written: sorted keys, so a re-ordered file keeps its answer. */
export function configDigest(raw: JsonValue): string {
  return createHash("sha256").update(canonicalJson(raw)).digest("hex");
}


function realOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p); // not there: the path as given
  }
}
