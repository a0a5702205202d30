// A person whose home folder is itself writable to commands (deepcode started in the home
// folder, or `~` among permissions.additionalDirectories) keeps deepcode's home hidden: its
// `.deepcode/` is also a protected project path, and binding it read-only must not uncover the
// credentials, sessions and ledger hidden there (the plan leaves protected paths inside a hidden
// folder out). Real bash in real bubblewrap, judged by what the command can read.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sandboxStatus } from "../../mods/sandbox/index.js";
import { wrapArgv } from "../../mods/sandbox/bwrap.js";

const status = sandboxStatus();

describe.skipIf(!status.active)("deepcode's home when the person's home folder is writable (needs bubblewrap)", () => {
  let base: string;
  let home: string;
  beforeEach(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), "deepcode-homew-")));
    home = join(base, "home");
    mkdirSync(join(home, ".deepcode", "plugins", "installed"), { recursive: true });
    mkdirSync(join(home, "proj"));
    writeFileSync(join(home, ".deepcode", "credentials"), "DEEPSEEK_API_KEY=sk-never-readable\n");
    writeFileSync(join(home, ".deepcode", "plugins", "installed", "readme.md"), "plugin file\n");
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  const run = (root: string, writable: string[], command: string): { status: number | null; stdout: string } => {
    const argv = wrapArgv(["bash", "-c", command], { bwrap: status.bwrap as string, root, home, deepcodeHome: join(home, ".deepcode"), writable, network: false, cwd: root, tools: [], seccomp: status.seccomp ?? null });
    const r = spawnSync(argv[0], argv.slice(1), { encoding: "utf8", timeout: 60_000 });
    return { status: r.status, stdout: r.stdout };
  };

  it.each([
    ["the workspace is the home folder", () => ({ root: home, writable: [] as string[] })],
    ["the home folder is an additional directory", () => ({ root: join(home, "proj"), writable: [home] })],
  ])("keeps the credentials unreadable when %s, and installed plugins readable", (_name, setup) => {
    const { root, writable } = setup();
    const r = run(root, writable, `cat ${JSON.stringify(join(home, ".deepcode", "credentials"))} 2>/dev/null; echo; cat ${JSON.stringify(join(home, ".deepcode", "plugins", "installed", "readme.md"))}`);
    expect(r.stdout).not.toContain("sk-never-readable");
    expect(r.stdout).toContain("plugin file");
  });
});
