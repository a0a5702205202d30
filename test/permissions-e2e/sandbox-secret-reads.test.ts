// A secret the sandbox hides is no reason to ask (issue #35): with the sandbox active, a command
// whose only secret reads are of files the sandbox does not have or replaces by an empty file
// runs without a prompt — and still reads nothing of them. A token-free `.npmrc` is
// configuration, not a secret. One Bash call in `deepcode -p` (an ask is a denial), judged by
// what reached the simulator. Run `npx tsc -p tsconfig.json` first: this starts dist/.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sandboxStatus } from "../../mods/sandbox/index.js";
import { copyTemplate, HOME_SECRET, makeTemplate, runOne } from "../../bench/friction-lib.mjs";

const available = sandboxStatus().active;
const TIMEOUT = 180_000;
const CANARY = "canary-value-5c1f0e";

let template: string;
beforeAll(() => {
  template = makeTemplate();
});
afterAll(() => rmSync(template, { recursive: true, force: true }));

type Box = ReturnType<typeof copyTemplate>;

async function inBox(prepare: (box: Box) => void, command: string): Promise<Awaited<ReturnType<typeof runOne>>> {
  const box = copyTemplate(template);
  try {
    prepare(box);
    return await runOne({ box, command, settings: {} });
  } finally {
    rmSync(box.base, { recursive: true, force: true });
  }
}

const git = (cwd: string, ...args: string[]): void => {
  execFileSync("git", args, { cwd, stdio: "ignore", env: { PATH: process.env.PATH, GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t", HOME: cwd } });
};

describe.skipIf(!available)("reads of secrets the sandbox hides run without a prompt and read nothing", () => {
  const withEnv = (box: Box): void => writeFileSync(join(box.root, ".env"), `API_TOKEN=${CANARY}\n`);

  for (const command of ["grep -rn TODO .", `grep -rn ${CANARY.slice(0, 6)} .`, "cat .env", "grep -r . --include=.env", "tar cf - . | tar tvf - | head -50", "cat ~/.ssh/id_rsa ~/.aws/credentials"]) {
    it(`${command}`, async () => {
      const r = await inBox(withEnv, command);
      expect(r.denied, r.reason).toBe(false);
      expect(r.sent).not.toContain(CANARY);
      expect(r.sent).not.toContain(HOME_SECRET);
    }, TIMEOUT);
  }
});

describe.skipIf(!available)("a token-free .npmrc is configuration, one with a token is a secret", () => {
  const npmrc = (text: string) => (box: Box): void => {
    writeFileSync(join(box.root, ".npmrc"), text);
    git(box.root, "add", ".npmrc");
    git(box.root, "commit", "-qm", "npmrc");
  };

  for (const command of ["git log -p -3", "git show HEAD:.npmrc", "git diff HEAD~2", "git blame .npmrc", "git grep -n registry", "cat .npmrc"]) {
    it(`a committed .npmrc with registry and audit settings: ${command} runs, and shows it`, async () => {
      const r = await inBox(npmrc("registry=https://registry.example.org/\naudit=false\n"), command);
      expect(r.denied, r.reason).toBe(false);
      expect(r.toolMessage).toContain("registry.example.org");
    }, TIMEOUT);
  }

  it("a .npmrc whose token is only a variable reference (${NPM_TOKEN}) is configuration too", async () => {
    const r = await inBox(npmrc("//registry.npmjs.org/:_authToken=${NPM_TOKEN}\n"), "git log -p -1");
    expect(r.denied, r.reason).toBe(false);
  }, TIMEOUT);

  it("a committed .npmrc holding a token: git log -p asks (and in -p is refused), cat reads an empty file", async () => {
    const logged = await inBox(npmrc(`//registry.npmjs.org/:_authToken=npm_${CANARY}\n`), "git log -p -1");
    expect(logged.denied).toBe(true);
    expect(logged.sent).not.toContain(CANARY);
    const cat = await inBox(npmrc(`//registry.npmjs.org/:_authToken=npm_${CANARY}\n`), "cat .npmrc; wc -c .npmrc");
    expect(cat.denied, cat.reason).toBe(false);
    expect(cat.sent).not.toContain(CANARY);
    expect(cat.toolMessage).toMatch(/^0 \.npmrc/m);
  }, TIMEOUT);
});
