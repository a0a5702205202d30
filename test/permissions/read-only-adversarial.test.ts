// Issue #36: the adversarial corpus (adversarial-corpus.ts) against the reader alone — no allow
// rules, no sandbox, the gate's `readerAlone` as where no sandbox is active. Whatever the reader
// lets run as read-only is run by real bash in a fresh box and must do nothing at all: run no
// marker program, print no secret, change nothing in the project, beside it or at home.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decide, historyHoldsSecret } from "../../src/cli/permissions/index.js";
import { CORPUS_DENY, FAMILIES } from "./adversarial-corpus.js";
import { haveBash, makeFixture, type Fixture } from "./adversarial-fixture.js";
import { rulesOf } from "./helpers.js";

describe.skipIf(!haveBash)("the adversarial corpus with the reader alone (no rules, no sandbox)", () => {
  let fixture: Fixture;
  beforeAll(() => {
    fixture = makeFixture();
  });
  afterAll(() => fixture?.cleanup());

  let allowed = 0;
  for (const family of FAMILIES) {
    it(`family ${family.name}: every line it lets run changes nothing and prints no secret`, () => {
      const escapes: string[] = [];
      for (const line of family.lines) {
        const box = fixture.fresh();
        const env = { root: box.root, home: box.home, cwd: box.root, readerAlone: true, historySecret: historyHoldsSecret };
        const d = decide({ tool: "Bash", input: { command: line }, readOnly: false }, rulesOf({ project: { deny: CORPUS_DENY } }), env);
        if (d.decision !== "allow") continue;
        allowed++;
        const { harm } = fixture.run(box, line, false);
        if (harm.length > 0) escapes.push(`${JSON.stringify(line)} was allowed (${d.reason}) and ${harm.join("; ")}`);
      }
      expect(escapes).toEqual([]);
    });
  }

  it("lets some of the corpus run (the families hold plain reads too)", () => {
    console.log(`adversarial corpus, reader alone: ${allowed} lines let run as read-only, each harmless when run`);
    expect(allowed).toBeGreaterThan(0);
  });
});
