// A lock file another deepcode has opened but not yet written (a loaded machine can keep it empty
// for a while) is held: taking it would make two writers of one session. Only an empty lock older
// than a process needs to write one is a crash's leftover, broken and taken.
import { mkdtempSync, rmSync, utimesSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { acquireLock, releaseLock } from "../../src/core/session/lock.js";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe("an empty lock file", () => {
  it("is another process between its open and its write: not taken, however many tries", () => {
    const dir = mkdtempSync(join(tmpdir(), "deepcode-lock-"));
    dirs.push(dir);
    const file = join(dir, "s.lock");
    writeFileSync(file, "");
    expect(() => acquireLock(file, "s")).toThrow(/could not take the lock .*keeps changing/);
    expect(readFileSync(file, "utf8")).toBe(""); // left to its owner
  });

  it("is a crash's leftover once it is old: broken and taken", () => {
    const dir = mkdtempSync(join(tmpdir(), "deepcode-lock-"));
    dirs.push(dir);
    const file = join(dir, "s.lock");
    writeFileSync(file, "");
    const old = new Date(Date.now() - 60_000);
    utimesSync(file, old, old);
    acquireLock(file, "s");
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ pid: process.pid });
    releaseLock(file);
  });
});
