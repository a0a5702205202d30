// The one PATH lookup: the sandbox's bwrap, grep's rg and `deepcode doctor` find programs the
// same way, so doctor reports what the tools will really run.
import { accessSync, constants } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";

/** The absolute path of the first executable `name` on `path` (a PATH string), or null.
 *  Empty and relative PATH entries are skipped: what they name would depend on the cwd. */
export function findOnPath(name: string, path: string = process.env.PATH ?? ""): string | null {
  for (const dir of path.split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this PATH entry (or not executable): try the next one
    }
  }
  return null;
}
