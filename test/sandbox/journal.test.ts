// Issue 35, item 7: the sandbox's journal (mods/sandbox/journal.ts) is swept at start only when
// its owner is gone, and a torn or unreadable one is ignored safely. (A deepcode really killed
// mid-command, and the sweep at its next start: test/permissions-e2e/sandbox-journal.test.ts.)
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sandboxStatus } from "../../mods/sandbox/index.js";
import { startGuard } from "../../mods/sandbox/guard.js";
import { journalDir } from "../../mods/sandbox/journal.js";
import { loadSandbox } from "./harness.js";

const available = sandboxStatus().active;
const GOOD_MCP = '{"mcpServers":{}}\n';

let base: string;
let root: string;
let home: string;
let dcHome: string;

/** A pid no process has now (a child that has ended). */
function deadPid(): number {
  const r = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(r.stdout);
}

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "deepcode-journal-")));
  root = join(base, "ws");
  home = join(base, "home");
  dcHome = join(base, "dc-home");
  mkdirSync(join(root, ".git", "hooks"), { recursive: true });
  mkdirSync(home);
  writeFileSync(join(root, ".mcp.json"), GOOD_MCP);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe.skipIf(!available)("the sandbox journal at start", () => {
  it("is written before a command, private to the person, and removed after it", () => {
    const guard = startGuard(root, dcHome, [root]);
    const dir = journalDir(dcHome, root);
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.json$/);
    expect(spawnSync("stat", ["-c", "%a", join(dir, files[0])], { encoding: "utf8" }).stdout.trim()).toBe("600");
    expect(JSON.parse(readFileSync(join(dir, files[0]), "utf8")).placeholders).toContain(join(root, ".husky"));
    guard.finish();
    expect(readdirSync(dir)).toEqual([]);
    expect(existsSync(join(root, ".husky"))).toBe(false);
  });

  it("leaves a running deepcode's journal and stand-ins alone", () => {
    const guard = startGuard(root, dcHome, [root]);
    try {
      const box = loadSandbox({ root, home, deepcodeHome: dcHome });
      expect(box.warnings).toEqual([]);
      expect(readdirSync(journalDir(dcHome, root))).toHaveLength(1);
      expect(existsSync(join(root, ".husky"))).toBe(true);
    } finally {
      guard.finish();
    }
  });

  it("puts back what a journal of a deepcode that is gone names, and says so", () => {
    const guard = startGuard(root, dcHome, [root]);
    // What its command left when deepcode was killed: a changed .mcp.json, a new command file.
    writeFileSync(join(root, ".mcp.json"), '{"mcpServers":{"x":{"command":"sh"}}}\n');
    const dir = journalDir(dcHome, root);
    const [file] = readdirSync(dir);
    const journal = JSON.parse(readFileSync(join(dir, file), "utf8")) as { pid: number; startTime: string };
    // Its owner gone: the same journal as a dead process would have left it.
    const dead = deadPid();
    writeFileSync(join(dir, file.replace(/^\d+/, String(dead))), JSON.stringify({ ...journal, pid: dead, startTime: "1" }));
    rmSync(join(dir, file));
    const warnings: string[] = [];
    // This start read the project's files before the sweep: it stops, and says to start again.
    expect(() => loadSandbox({ root, home, deepcodeHome: dcHome, warnings })).toThrow(/start deepcode again/);
    expect(readFileSync(join(root, ".mcp.json"), "utf8")).toBe(GOOD_MCP);
    expect(existsSync(join(root, ".husky"))).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
    expect(warnings.join("\n")).toMatch(/deepcode ended while a sandboxed command .* was running; its protected paths are put back: put back \.mcp\.json.*removed the empty stand-ins .*\.husky/);
    // The next start finds nothing left and runs.
    expect(loadSandbox({ root, home, deepcodeHome: dcHome }).warnings).toEqual([]);
    guard.finish(); // (nothing left to do: the sweep did it)
  });

  it("ignores a torn journal and an unreadable one of a gone owner, and starts", () => {
    const dir = journalDir(dcHome, root);
    mkdirSync(dir, { recursive: true });
    const dead = deadPid();
    writeFileSync(join(dir, `${dead}-1-a.json.tmp`), '{"version":1,"pid":');
    writeFileSync(join(dir, `${dead}-2-b.json`), "{not json");
    const box = loadSandbox({ root, home, deepcodeHome: dcHome });
    expect(readdirSync(dir)).toEqual([]);
    expect(box.warnings.join("\n")).toMatch(/ignored an unreadable sandbox journal/);
    expect(readFileSync(join(root, ".mcp.json"), "utf8")).toBe(GOOD_MCP);
  });
});
