// The one way deepcode replaces a small file it owns (settings it edits, trust.json,
// mcp-approvals.json, the credentials file, a sandbox journal, plugin state): the text goes to
// a temporary file beside it, then a rename puts it in place. So a full disk (or a crash) never
// leaves half a file: the old file stays whole, the temporary file is removed, and the error
// names the file that could not be written (ENOSPC alone names no file).
import { chmodSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

export interface WholeFileOptions {
  /** The file's mode (also set when it already existed with another); undefined: an existing
   *  file keeps its own, a new one gets the default (0666 less the umask). */
  mode?: number;
  /** The folder is created with this mode when it is missing; undefined: not created. */
  dirMode?: number;
}

/** Replace `file` with `text`, whole or not at all. Throws an error naming `file` (its `code`
 *  is the system's: ENOSPC, EACCES …) and leaves the old file as it was. */
export function writeWholeSync(file: string, text: string, o: WholeFileOptions = {}): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    if (o.dirMode !== undefined) mkdirSync(dirname(file), { recursive: true, mode: o.dirMode });
    writeFileSync(tmp, text, o.mode === undefined ? {} : { mode: o.mode });
    const mode = o.mode ?? existingMode(file);
    if (mode !== undefined) chmodSync(tmp, mode);
    renameSync(tmp, file);
  } catch (err) {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // the temporary file cannot be removed either (a read-only folder): nothing more to do
    }
    const code = (err as NodeJS.ErrnoException).code;
    throw Object.assign(new Error(`could not write ${file}: ${reason(err as Error)}`, { cause: err }), { code });
  }
}

/** The system's words without the syscall and path node appends ("ENOSPC: no space left on
 *  device, write" → "no space left on device"). */
function reason(err: Error): string {
  const m = /^[A-Z]+: (.*?), \w+( '.*')?$/.exec(err.message);
  return m ? m[1] : err.message;
}

function existingMode(file: string): number | undefined {
  try {
    return statSync(file).mode & 0o7777;
  } catch {
    return undefined; // no file yet (or it cannot be seen): the new one gets the default mode
  }
}
