// The one way deepcode keeps a person's per-project answers in its home folder (trust.json,
// mcp-approvals.json): `{ version: 1, projects: { <project real path>: … } }`, written 0600 in a
// 0700 folder through a temporary file and a rename, so a crash never leaves half a file.
import { mkdirSync, readFileSync, realpathSync } from "node:fs";
import { resolve } from "node:path";
import { withFileLock } from "./file-lock.js";
import { writeWholeSync } from "./whole-file.js";

export interface ProjectsFile<T> {
  version: 1;
  projects: Record<string, T>;
}

/** Why a store could not be read: the file's error code, or what is wrong with its text. */
export type StoreFailure = { kind: "unreadable"; code: string } | { kind: "malformed"; message: string };

/** The store at `file` (an empty one when it is missing, unreadable or malformed; then
 *  `failure` says why — a missing file is no failure). `what` names the file in the message
 *  of a JSON value that is not such a store ("not a trust store"). */
export function readProjectsFile<T>(file: string, what: string): { data: ProjectsFile<T>; failure?: StoreFailure } {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const data: ProjectsFile<T> = { version: 1, projects: {} };
    return code === "ENOENT" ? { data } : { data, failure: { kind: "unreadable", code: code ?? String(err) } };
  }
  try {
    const v = JSON.parse(text) as Partial<ProjectsFile<T>>;
    if (typeof v !== "object" || v === null || typeof v.projects !== "object" || v.projects === null) throw new Error(`not ${what}`);
    return { data: { version: 1, projects: { ...v.projects } } };
  } catch (err) {
    return { data: { version: 1, projects: {} }, failure: { kind: "malformed", message: (err as Error).message } };
  }
}

/** Write `data` as `file` in `dir` (created 0700), readable by the owner only. */
export function writeProjectsFile<T>(dir: string, file: string, data: ProjectsFile<T>): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeWholeSync(file, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
}

/** Change the store at `file` as it is on disk now, holding its lock: two deepcode processes
 *  answering at once (two projects trusted from two terminals) each keep their answer, where
 *  writing what was read earlier would drop the other's. A store that cannot be read throws
 *  (`refuse` says what to tell the person) rather than being replaced by one answer. Returns
 *  what was written. */
export function updateProjectsFile<T>(
  dir: string,
  file: string,
  what: string,
  change: (data: ProjectsFile<T>) => void,
  refuse: (f: StoreFailure) => string,
): ProjectsFile<T> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return withFileLock(file, () => {
    const { data, failure } = readProjectsFile<T>(file, what);
    if (failure) throw new Error(`${file}: ${refuse(failure)}`);
    change(data);
    writeProjectsFile(dir, file, data);
    return data;
  });
}

/** A project's key in such a store: its real path, or the resolved path when it is not there. */
export function projectStoreKey(root: string): string {
  try {
    return realpathSync(root);
  } catch {
    return resolve(root); // not there: the path as given
  }
}
