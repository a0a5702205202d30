// A temporary project and deepcode home for running the real CLI against the simulator.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const BIN = fileURLToPath(new URL("../../bin/deepcode.js", import.meta.url));

export interface CliEnv {
  root: string;
  home: string;
  env: Record<string, string>;
  write(path: string, content: string): void;
  cleanup(): void;
}

/** The person's settings these runs start with: the sandbox's auto-allow off
 *  (`sandbox.autoAllowBashIfSandboxed`), so that a Bash command asks as the rules say — the
 *  tests using this are about asks, prompts and denials; the auto-allow has its own
 *  (test/permissions/sandboxed.test.ts, test/permissions-e2e/friction.test.ts). A test that
 *  writes its own `settings.json` into the home replaces this. */
export const ASKING_USER_SETTINGS = { sandbox: { autoAllowBashIfSandboxed: false } };

export function cliEnv(simUrl: string, files: Record<string, string> = {}): CliEnv {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "deepcode-proj-")));
  const home = realpathSync(mkdtempSync(join(tmpdir(), "deepcode-home-")));
  writeFileSync(join(home, "settings.json"), JSON.stringify(ASKING_USER_SETTINGS));
  const write = (path: string, content: string): void => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  };
  for (const [p, c] of Object.entries(files)) write(p, c);
  return {
    root,
    home,
    env: { DEEPSEEK_BASE_URL: simUrl, DEEPSEEK_API_KEY: "sk-test-cli", DEEPCODE_HOME: home, NO_COLOR: "1", HOME: home, PATH: process.env.PATH ?? "/usr/bin:/bin" },
    write,
    cleanup: () => {
      rmSync(root, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    },
  };
}
