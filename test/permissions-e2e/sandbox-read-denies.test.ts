// Every read deny is a path the sandbox hides (issue #42, item 1; issue #35's grant plan takes
// them): an administrator's `Read(.secrets/**)`, a person's `sandbox.filesystem.denyRead`, a
// project's own deny — a contained one-liner that builds the path at run time, copies the
// folder, archives it or greps the tree reads nothing of what they name, without a question,
// while the files beside it read as before. Judged by effect: what reached the simulator.
// Run `npx tsc -p tsconfig.json` first: this starts dist/.
import { describe, expect, it } from "vitest";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { projectSettings, writeJson, type Box } from "./helpers.js";
import { FAMILY_TIMEOUT_MS, SANDBOX, WHY_NOT, account, has, makeDiskBox, runCalls, userSettings } from "./grant-helpers.js";

const VALUE = "denied-value-7e21c9";
const PLAIN = "plain-value-40b1";

/** Readers that name the folder only at run time, or not at all. */
const READERS = [
  ...(has("python3") ? ["python3 -c \"import glob;print([open(p).read() for p in glob.glob('.sec*/**', recursive=True) if p.endswith('.txt')])\""] : []),
  "node -e \"const f=require('fs');const d='.sec'+'rets';for(const n of f.readdirSync(d))console.log(f.readFileSync(d+'/'+n,'utf8'))\"",
  "sh -c 'cat $(printf .sec)rets/api.txt'",
  "find . -path '*secret*' -type f -exec cat {} +",
  "tar cf - . 2>/dev/null | tar xOf - 2>/dev/null | grep -a value",
  "cp -r .secrets copy && cat copy/api.txt",
  "grep -r value . 2>/dev/null",
  "cat notes/plain.txt",
];

/** Of READERS, those the gate has no reason to ask about. */
const FREE = READERS.filter((c) => !c.startsWith("sh -c") && !c.startsWith("cp "));

function prepare(box: Box): void {
  mkdirSync(join(box.root, ".secrets"), { recursive: true });
  writeFileSync(join(box.root, ".secrets", "api.txt"), `${VALUE}\n`);
  mkdirSync(join(box.root, "notes"), { recursive: true });
  writeFileSync(join(box.root, "notes", "plain.txt"), `${PLAIN}\n`);
}

const WAYS: Array<{ name: string; setup: (box: Box) => { managed?: string } }> = [
  {
    name: "the managed policy's Read(.secrets/**)",
    setup: (box) => {
      const managed = join(box.base, "managed-settings.json");
      writeJson(managed, { permissions: { deny: ["Read(.secrets/**)"] } });
      return { managed };
    },
  },
  { name: "the person's sandbox.filesystem.denyRead", setup: (box) => (userSettings(box, { sandbox: { filesystem: { denyRead: [".secrets"] } } }), {}) },
  { name: "the project's own Read(./.secrets/**)", setup: (box) => (projectSettings(box, { permissions: { deny: ["Read(./.secrets/**)"] } }), {}) },
];

describe.skipIf(!SANDBOX)(`what a read deny names, the sandbox hides${WHY_NOT}`, () => {
  for (const way of WAYS) {
    it(`${way.name}: no contained reader prints it, the ones the gate cannot see into run without a question, and the files beside it still read`, async () => {
      const box = makeDiskBox();
      try {
        prepare(box);
        const { managed } = way.setup(box);
        const r = await runCalls(box, READERS, { managed });
        const why = account(READERS, r);
        expect(r.sent, why).not.toContain(VALUE);
        // The readers that name nothing the gate can see run contained, without a question (one
        // that names the folder itself, or a path only known at run time, may ask: no harm).
        const asked = new Set(r.denials.map((d) => d.tool_input?.command));
        expect(FREE.filter((c) => asked.has(c)), why).toEqual([]);
        expect(r.results[READERS.length - 1], why).toContain(PLAIN);
      } finally {
        box.cleanup();
      }
    }, FAMILY_TIMEOUT_MS);
  }

  it("without a deny, the same readers do print it (the test can tell)", async () => {
    const box = makeDiskBox();
    try {
      prepare(box);
      const r = await runCalls(box, ["cat .secrets/api.txt"]);
      expect(r.results[0], account(["cat .secrets/api.txt"], r)).toContain(VALUE);
    } finally {
      box.cleanup();
    }
  }, FAMILY_TIMEOUT_MS);
});
