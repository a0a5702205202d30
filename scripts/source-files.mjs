// The source files the lint scripts read (check-boundaries, check-cycles, check-house): every
// file below `dir` whose name matches `pattern`, but declaration files, node_modules, dist/
// and hidden folders. A folder that does not exist has none.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

export function sourceFiles(dir, pattern, out = []) {
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return out; // a folder that does not exist has nothing to check
  }
  for (const name of names) {
    if (name === "node_modules" || name === "dist" || name.startsWith(".")) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) sourceFiles(p, pattern, out);
    else if (pattern.test(name) && !name.endsWith(".d.ts")) out.push(p);
  }
  return out;
}
