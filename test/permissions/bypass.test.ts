import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { decide } from "../../src/cli/permissions/index.js";
import { BYPASS_CORPUS, CORPUS_RULES, MUST_ALLOW, plantCorpusFixtures } from "./bypass-corpus.js";
import { makeWorkspace, rulesOf, type Workspace } from "./helpers.js";

let ws: Workspace;
beforeAll(() => {
  ws = makeWorkspace();
  plantCorpusFixtures(ws.root);
});
afterAll(() => ws.cleanup());

const rules = rulesOf({ project: CORPUS_RULES });

describe("the bypass corpus: under allow echo/ls/git and deny rm/git push/curl, none of these is allowed", () => {
  it("holds at least 60 commands", () => {
    expect(BYPASS_CORPUS.length).toBeGreaterThanOrEqual(60);
  });

  for (const entry of BYPASS_CORPUS) {
    it(`${entry.expect}s ${JSON.stringify(entry.command)}: ${entry.why}`, () => {
      const d = decide({ tool: "Bash", input: { command: entry.command }, readOnly: false }, rules, ws.env);
      expect(d.decision, d.reason).toBe(entry.expect);
    });
  }

  it("leaves the files it names untouched (deciding never runs anything)", () => {
    for (const entry of BYPASS_CORPUS) decide({ tool: "Bash", input: { command: entry.command }, readOnly: false }, rules, ws.env);
    expect(readFileSync(join(ws.root, "victim.txt"), "utf8")).toBe("keep me\n");
    expect(readFileSync(join(ws.base, "outside", "target"), "utf8")).toBe("original\n");
  });
});

describe("the parser is careful, not paranoid: these are allowed under the same rules", () => {
  for (const command of MUST_ALLOW) {
    it(`allows ${JSON.stringify(command)}`, () => {
      const d = decide({ tool: "Bash", input: { command }, readOnly: false }, rules, ws.env);
      expect(d.decision, d.reason).toBe("allow");
    });
  }
});
