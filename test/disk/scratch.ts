// What each full-disk test starts and ends with: the disk freed, its temporary folders removed
// and what it opened closed, whatever the test left behind.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";
import { disk } from "../helpers/full-disk.js";

export function scratch(): { dir(): string; track<T extends { close(): Promise<void> }>(x: T): T } {
  const dirs: string[] = [];
  const open: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    disk.free();
    for (const o of open.splice(0)) await o.close();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  return {
    dir: () => {
      const d = mkdtempSync(join(tmpdir(), "deepcode-disk-"));
      dirs.push(d);
      return d;
    },
    track: (x) => (open.push(x), x),
  };
}
