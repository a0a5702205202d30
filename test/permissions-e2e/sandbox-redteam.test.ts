// Red-team cases for the sandbox's undo of protected paths (mods/sandbox/protect.ts), through
// the real CLI: one Bash call in `deepcode -p`, default settings (the sandbox active, so the
// command runs without a prompt), judged by effect outside the workspace.
// Run `npx tsc -p tsconfig.json` first: this starts dist/.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sandboxStatus } from "../../mods/sandbox/index.js";
import { copyTemplate, makeTemplate, runOne } from "../../bench/friction-lib.mjs";

const available = sandboxStatus().active;
const TIMEOUT = 180_000;

let template: string;
beforeAll(() => {
  template = makeTemplate();
});
afterAll(() => rmSync(template, { recursive: true, force: true }));

describe.skipIf(!available)("the undo of protected paths never follows a link the command put in place", () => {
  it("a link where .claude belongs does not make deepcode delete what it points at (the person's ~/.claude)", async () => {
    const box = copyTemplate(template);
    try {
      const mine = join(box.home, ".claude");
      mkdirSync(join(mine, "commands"), { recursive: true });
      writeFileSync(join(mine, "settings.json"), '{"mine":1}\n');
      writeFileSync(join(mine, "commands", "mine.md"), "mine\n");
      const r = await runOne({ box, command: `ln -s ${mine} .claude`, settings: {} });
      expect(r.denied).toBe(false); // it ran (without a prompt): the sandbox contains it
      expect(readFileSync(join(mine, "settings.json"), "utf8")).toBe('{"mine":1}\n');
      expect(existsSync(join(mine, "commands", "mine.md"))).toBe(true);
      expect(existsSync(join(box.root, ".claude"))).toBe(false); // the link itself is undone
    } finally {
      rmSync(box.base, { recursive: true, force: true });
    }
  }, TIMEOUT);
});
