// Grep of a path that is a symlink to the home folder (or a folder holding it) leaves the
// credential folders out as a search of the home folder itself does: the secret places are
// judged where the files really are, not only by the name the search was given.
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findRg } from "../../src/builtins/index.js";
import { createGrepTool } from "../../src/builtins/grep.js";
import { session, tempDir, writeTree } from "./helpers.js";

const rg = findRg();
const engines: Array<[string, string | null]> = [["the built-in search", null]];
if (rg) engines.push(["rg", rg]);

describe.each(engines)("Grep through %s, given a link to the home folder", (_name, rgPath) => {
  it("does not read ~/.ssh/config or other credential folders through the link", async () => {
    const base = tempDir();
    const root = join(base, "ws");
    const home = join(base, "home");
    writeTree(home, { ".ssh/config": "Host PRIVATE-ssh\n", ".config/gcloud/credentials.db": "PRIVATE gcloud\n", "notes.txt": "PRIVATE notes\n" });
    writeTree(root, { "src/a.ts": "x\n" });
    symlinkSync(home, join(root, "h"));
    const grep = createGrepTool(() => rgPath, () => ({ home, deepcodeHome: join(base, "dc") }));
    for (const path of ["h", join(root, "h"), join(root, "h", ".ssh")]) {
      const r = await grep.run({ path, pattern: "PRIVATE", output_mode: "content" } as never, session({ root, rgPath }).ctx());
      expect(r.content, path).not.toMatch(/PRIVATE-ssh|PRIVATE gcloud/);
    }
  });
});
