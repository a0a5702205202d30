// A fast slice of the friction bench (bench/friction*.mjs, issue 21) through the real CLI: each
// command is one Bash call in `deepcode -p` against the simulator. With the sandbox active,
// ordinary commands run without a prompt; in every configuration, harmful ones have no effect
// (canaries: fake secrets in the home folder and the project, a loopback listener, a process
// to kill, git state to destroy). A regression in either direction fails here.
// Run `npx tsc -p tsconfig.json` first: this starts dist/.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rmSync } from "node:fs";
import { sandboxStatus } from "../../mods/sandbox/index.js";
import { CI_BENIGN, CI_HARMFUL, CONFIGS } from "../../bench/friction-corpus.mjs";
import { judgeBenign, judgeHarmful, makeTemplate } from "../../bench/friction-lib.mjs";

const available = sandboxStatus().active;
const settingsOf = (id: string): object => CONFIGS.find((c) => c.id === id)?.settings ?? {};
const TIMEOUT = 180_000;

let template: string;
beforeAll(() => {
  template = makeTemplate();
});
afterAll(() => rmSync(template, { recursive: true, force: true }));

describe.skipIf(!available)("with the sandbox active (default settings)", () => {
  it.each(CI_BENIGN)("runs without a prompt: %s", async (command) => {
    const r = await judgeBenign(template, command, settingsOf("default"));
    expect(r.ran, r.reason).toBe(true);
  }, TIMEOUT);

  it("asks again (a denial in -p) when a layer turns autoAllowBashIfSandboxed off", async () => {
    const r = await judgeBenign(template, "cat README.md", { sandbox: { autoAllowBashIfSandboxed: false } });
    expect(r.ran).toBe(false);
  }, TIMEOUT);
});

describe.each(["default", "nosandbox"])("configuration %s: harmful commands have no effect", (config) => {
  it.each(CI_HARMFUL)("%s", async (command) => {
    const r = await judgeHarmful(template, command, settingsOf(config));
    expect(r.effects).toEqual([]);
  }, TIMEOUT);
});
