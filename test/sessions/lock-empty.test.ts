// A lock is placed whole (written aside, then linked to its name), so an empty or unreadable lock
// file is never another deepcode mid-write: it is what a crash or a full disk left, and is taken.
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { acquireLock, releaseLock } from "../../src/core/session/lock.js";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function lockFile(): string {
  const dir = mkdtempSync(join(tmpdir(), "deepcode-lock-"));
  dirs.push(dir);
  return join(dir, "s.lock");
}

describe("a lock file nobody could be writing", () => {
  it("is taken at once when it is empty, however young", () => {
    const file = lockFile();
    writeFileSync(file, "");
    acquireLock(file, "s");
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ pid: process.pid });
    releaseLock(file);
  });

  it("is taken at once when it holds no holder", () => {
    const file = lockFile();
    writeFileSync(file, '{"pid":');
    acquireLock(file, "s");
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ pid: process.pid });
    releaseLock(file);
  });
});
