// A project, a home and a deepcode home on disk, and the sandbox's plan for them as a Mac would
// work it out (plan.ts with platform "darwin"; the system folders are this machine's, since
// macOS's are not here): for the Seatbelt tests.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { planFor, type PlanInput, type SandboxPlan } from "../../mods/sandbox/plan.js";

export interface PlanFixture {
  base: string;
  home: string;
  root: string;
  deepcodeHome: string;
  privateHome: string;
  plan(extra?: Partial<PlanInput>): SandboxPlan;
  cleanup(): void;
}

/** `projectName`: the workspace folder's name (a crafted one, in the quoting tests). */
export function planFixture(projectName = "proj"): PlanFixture {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "deepcode-plan-")));
  const home = join(base, "home");
  const root = join(home, projectName);
  const deepcodeHome = join(home, ".deepcode");
  const privateHome = join(deepcodeHome, "sandbox", "home", "proj-1");
  mkdirSync(join(root, "sub"), { recursive: true });
  mkdirSync(privateHome, { recursive: true });
  mkdirSync(join(deepcodeHome, "plugins", "installed"), { recursive: true });
  mkdirSync(join(home, ".ssh"));
  writeFileSync(join(home, ".ssh", "id_ed25519"), "a key\n");
  writeFileSync(join(deepcodeHome, "credentials"), "DEEPSEEK_API_KEY=x\n");
  writeFileSync(join(root, ".env"), "TOKEN=1\n");
  writeFileSync(join(root, "sub", "id_rsa"), "-----BEGIN OPENSSH PRIVATE KEY-----\nx\n");
  writeFileSync(join(root, "README.md"), "hello\n");
  writeFileSync(join(root, ".mcp.json"), "{}\n");
  mkdirSync(join(root, ".claude", "commands"), { recursive: true });
  writeFileSync(join(root, ".claude", "settings.json"), "{}\n");
  const git = (...args: string[]): void => void spawnSync("git", args, { cwd: root, env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" } });
  git("init", "-q");
  git("add", "-A");
  return {
    base,
    home,
    root,
    deepcodeHome,
    privateHome,
    plan: (extra = {}) =>
      planFor({
        root,
        cwd: root,
        home,
        deepcodeHome,
        privateHome,
        writable: [],
        network: false,
        tmp: "/tmp",
        tools: [],
        seccomp: null,
        env: {},
        platform: "darwin",
        systemDirs: ["/usr", "/bin", "/etc"],
        systemSecrets: ["/etc/shadow"],
        ...extra,
      }),
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}
