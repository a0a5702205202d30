// The person's answers about a project's MCP servers: `<home>/mcp-approvals.json` (0600,
// folder 0700), keyed by the project's real path and the server's name, each with a digest of
// the server's configuration as written — a changed command, URL or environment asks again.
// Kept in deepcode's home, not the project: the project's files (and so its trust digest) do
// not change when the person answers. A store that cannot be read is no answer (every project
// server asks again), said once.

import { createHash } from "node:crypto";
import { join } from "node:path";
import type { JsonValue } from "../../src/contract/index.js";
import { canonicalJson } from "../../src/lib/json.js";
import { projectStoreKey, readProjectsFile, updateProjectsFile, type ProjectsFile, type StoreFailure } from "../../src/lib/project-store.js";

export interface Approval {
  allowed: boolean;
  digest: string;
  at: string;
}

type ApprovalFile = ProjectsFile<Record<string, Approval>>;

export class ApprovalStore {
  readonly file: string;
  readonly project: string;
  problem?: string;
  private data?: ApprovalFile;

  constructor(home: string, root: string) {
    this.file = join(home, "mcp-approvals.json");
    this.home = home;
    this.project = projectStoreKey(root);
  }

  private readonly home: string;

  /** The remembered answer for this server, if it was given for this exact configuration. */
  get(server: string, digest: string): Approval | undefined {
    const a = this.load().projects[this.project]?.[server];
    return a && a.digest === digest && typeof a.allowed === "boolean" ? a : undefined;
  }

  set(server: string, digest: string, allowed: boolean, now = new Date()): void {
    this.load();
    if (this.problem) throw new Error(`${this.file}: ${this.problem}; fix or remove it to remember answers`);
    // Changed as the file is now, under its lock: another deepcode's answer since is kept.
    const refuse = (f: StoreFailure): string => `${f.kind === "unreadable" ? `cannot be read (${f.code})` : `is malformed (${f.message})`}; fix or remove it`;
    const change = (data: ApprovalFile): void => void ((data.projects[this.project] ??= {})[server] = { allowed, digest, at: now.toISOString() });
    this.data = updateProjectsFile<Record<string, Approval>>(this.home, this.file, "an approvals file", change, refuse);
  }

  private load(): ApprovalFile {
    if (this.data) return this.data;
    const { data, failure } = readProjectsFile<Record<string, Approval>>(this.file, "an approvals file");
    if (failure) this.problem = failure.kind === "unreadable" ? `cannot be read (${failure.code})` : `is malformed (${failure.message})`;
    return (this.data = data);
  }
}

/** The digest of a configuration as written: sorted keys, so a re-ordered file keeps its answer. */
export function configDigest(raw: JsonValue): string {
  return createHash("sha256").update(canonicalJson(raw)).digest("hex");
}
