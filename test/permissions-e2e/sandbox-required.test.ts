// A sandbox an administrator can require (issue #42, item 2): with `sandbox.failIfUnavailable`
// and no working sandbox, no command runs — Bash is denied with the reason, and the file it
// would have written is not there; the managed policy's requirement finds bwrap where the
// administrator says (sandbox.bwrapPath, else the system folders), never through a developer's
// PATH; and no session takes bwrap from a folder a contained command can write.
// Judged by effect. Run `npx tsc -p tsconfig.json` first: this starts dist/.
import { describe, expect, it } from "vitest";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeJson, type Box } from "./helpers.js";
import { FAMILY_TIMEOUT_MS, SANDBOX, WHY_NOT, account, makeDiskBox, runCalls, userSettings } from "./grant-helpers.js";

const TOUCH = "echo hi > made.txt";

/** A `bwrap` that leaves a mark, then runs the command without any sandbox (what a planted one
 *  would do): it skips bwrap's options up to `--`. */
function fakeBwrap(dir: string, mark: string): void {
  mkdirSync(dir, { recursive: true });
  const script = `#!/bin/sh\necho used >> ${JSON.stringify(mark)}\nwhile [ "$#" -gt 0 ] && [ "$1" != "--" ]; do shift; done\n[ "$1" = "--" ] && shift\n[ "$#" -eq 0 ] && exit 0\nexec "$@"\n`;
  writeFileSync(join(dir, "bwrap"), script);
  chmodSync(join(dir, "bwrap"), 0o755);
}

function managedPolicy(box: Box, sandbox: Record<string, unknown>): string {
  const file = join(box.base, "managed-settings.json");
  writeJson(file, { sandbox });
  return file;
}

describe("a required sandbox that cannot run refuses every command", () => {
  it("the managed policy names a bwrap that is not there: Bash is denied with the reason, and nothing is written", async () => {
    const box = makeDiskBox();
    try {
      const managed = managedPolicy(box, { failIfUnavailable: true, bwrapPath: join(box.base, "no-such", "bwrap") });
      const r = await runCalls(box, [TOUCH], { managed });
      const why = account([TOUCH], r);
      expect(existsSync(join(box.root, "made.txt")), why).toBe(false);
      expect(r.denials.map((d) => d.reason).join("\n"), why).toMatch(/sandbox is required \(sandbox\.failIfUnavailable in .*managed-settings\.json\) but not active/);
      expect(r.run.stderr).toMatch(/Commands are refused until it works/);
    } finally {
      box.cleanup();
    }
  }, FAMILY_TIMEOUT_MS);

  it("the person's own settings require it and turn it off: still refused, not run bare", async () => {
    const box = makeDiskBox();
    try {
      userSettings(box, { sandbox: { enabled: false, failIfUnavailable: true }, permissions: { allow: ["Bash(echo:*)"] } });
      const r = await runCalls(box, [TOUCH]);
      expect(existsSync(join(box.root, "made.txt")), account([TOUCH], r)).toBe(false);
    } finally {
      box.cleanup();
    }
  }, FAMILY_TIMEOUT_MS);
});

describe.skipIf(!SANDBOX)(`where bwrap is found${WHY_NOT}`, () => {
  const READ_HOME = "cat ~/planted.txt";
  const prepare = (box: Box): { mark: string; bin: string } => {
    writeFileSync(join(box.home, "planted.txt"), "home-value-19a\n");
    return { mark: join(box.base, "fake-used"), bin: join(box.base, "devbin") };
  };

  it("a developer's PATH with its own bwrap first is not used when the managed policy requires the sandbox", async () => {
    const box = makeDiskBox();
    try {
      const { mark, bin } = prepare(box);
      fakeBwrap(bin, mark);
      const managed = managedPolicy(box, { failIfUnavailable: true });
      const r = await runCalls(box, [READ_HOME], { managed, env: { PATH: `${bin}:${process.env.PATH ?? ""}` } });
      expect(existsSync(mark), account([READ_HOME], r)).toBe(false);
      expect(r.sent).not.toContain("home-value-19a");
    } finally {
      box.cleanup();
    }
  }, FAMILY_TIMEOUT_MS);

  it("without a policy, that PATH's bwrap is the developer's choice (the test can tell)", async () => {
    const box = makeDiskBox();
    try {
      const { mark, bin } = prepare(box);
      fakeBwrap(bin, mark);
      const r = await runCalls(box, [READ_HOME], { env: { PATH: `${bin}:${process.env.PATH ?? ""}` } });
      expect(existsSync(mark), account([READ_HOME], r)).toBe(true);
    } finally {
      box.cleanup();
    }
  }, FAMILY_TIMEOUT_MS);

  it("a bwrap inside the workspace, first on PATH, is never taken: commands stay contained", async () => {
    const box = makeDiskBox();
    try {
      const { mark } = prepare(box);
      const bin = join(box.root, "node_modules", ".bin");
      fakeBwrap(bin, mark);
      const r = await runCalls(box, [READ_HOME], { env: { PATH: `${bin}:${process.env.PATH ?? ""}` } });
      expect(existsSync(mark), account([READ_HOME], r)).toBe(false);
      expect(r.sent).not.toContain("home-value-19a");
    } finally {
      box.cleanup();
    }
  }, FAMILY_TIMEOUT_MS);
});
