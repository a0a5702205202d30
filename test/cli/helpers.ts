// Real temp folders for the CLI tests: a project root, deepcode's home and a person's home,
// filled from { "relative/path": "content" } maps.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export interface Dirs {
  root: string;
  home: string;
  userHome: string;
  cleanup(): void;
}

export function tempDirs(): Dirs {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "deepcode-cli-")));
  const dirs = { root: join(base, "project"), home: join(base, "deepcode-home"), userHome: join(base, "person") };
  for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true });
  return { ...dirs, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

export function writeTree(dir: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    const p = join(dir, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, content);
  }
}
