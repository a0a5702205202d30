// A secret is recognised by its device and inode, not only by its name: the gate's read verdict
// (Read, Bash's reads, @-mentions) asks for a file that is a known secret under another name.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { linkSync, mkdirSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { decide } from "../../src/cli/permissions/index.js";
import { identitySecret, resetIdentityIndex } from "../../src/builtins/secret-identity.js";
import { bash, makeWorkspace, rulesOf, type Workspace } from "./helpers.js";

let ws: Workspace;
beforeEach(() => {
  resetIdentityIndex();
  ws = makeWorkspace();
  writeFileSync(join(ws.root, ".env"), "TOKEN=x\n");
  writeFileSync(join(ws.root, "plain.txt"), "hello\n");
  mkdirSync(join(ws.home, ".ssh"));
  writeFileSync(join(ws.home, ".ssh", "id_rsa"), "KEY\n");
  mkdirSync(join(ws.base, "dc"));
  mkdirSync(join(ws.base, "dc", "sessions", "other-project"), { recursive: true });
  writeFileSync(join(ws.base, "dc", "sessions", "other-project", "s1.jsonl"), "{}\n");
});
afterEach(() => ws.cleanup());

const env = () => ({ ...ws.env, deepcodeHome: join(ws.base, "dc") });
const readOf = (file_path: string) => decide({ tool: "Read", input: { file_path }, readOnly: true }, [], env());

describe("a file that is a secret under another name", () => {
  const cases: Array<[string, () => void, RegExp]> = [
    ["a hard link to .env", () => linkSync(join(ws.root, ".env"), join(ws.root, "notes.txt")), /same file as \.env/],
    ["a hard link to .env in a subfolder", () => (mkdirSync(join(ws.root, "a", "b"), { recursive: true }), linkSync(join(ws.root, ".env"), join(ws.root, "a", "b", "notes.txt"))), /same file as \.env/],
    ["a hard link to ~/.ssh/id_rsa", () => linkSync(join(ws.home, ".ssh", "id_rsa"), join(ws.root, "notes.txt")), /same file as ~\/\.ssh\/id_rsa/],
    ["a hard link to another project's transcript in deepcode's home", () => linkSync(join(ws.base, "dc", "sessions", "other-project", "s1.jsonl"), join(ws.root, "notes.txt")), /deepcode's home/],
    ["a symlink to a hard link to .env", () => (linkSync(join(ws.root, ".env"), join(ws.root, "hard.txt")), symlinkSync("hard.txt", join(ws.root, "notes.txt"))), /same file as \.env/],
  ];
  for (const [what, make, why] of cases) {
    it(`asks before reading ${what}, and says which secret it is`, () => {
      make();
      const file = what.includes("subfolder") ? "a/b/notes.txt" : "notes.txt";
      const d = readOf(file);
      expect(d.decision).toBe("ask");
      expect(d.by).toBe("secrets");
      expect(d.reason).toMatch(why);
      expect(bash(`cat ${file}`, rulesOf({ user: { allow: ["Bash(cat:*)"] } }), env())).toBe("ask");
    });
  }

  it("recognises a hard link made after the index was built (its inode's ctime is newer than the index)", () => {
    linkSync(join(ws.root, "plain.txt"), join(ws.root, "plain-link.txt")); // builds the index: nothing secret
    expect(readOf("plain-link.txt").decision).toBe("allow");
    linkSync(join(ws.root, ".env"), join(ws.root, "later.txt"));
    expect(readOf("later.txt").decision).toBe("ask");
  });

  it("recognises a secret renamed after the index was built", () => {
    linkSync(join(ws.root, "plain.txt"), join(ws.root, "plain-link.txt"));
    expect(readOf("plain-link.txt").decision).toBe("allow");
    renameSync(join(ws.root, ".env"), join(ws.root, "renamed.txt"));
    expect(readOf("renamed.txt").decision).toBe("ask");
  });

  it("leaves ordinary files and hard links between ordinary files alone", () => {
    linkSync(join(ws.root, "plain.txt"), join(ws.root, "plain-link.txt"));
    expect(readOf("plain.txt").decision).toBe("allow");
    expect(readOf("plain-link.txt").decision).toBe("allow");
    expect(identitySecret(join(ws.root, "plain-link.txt"), env())).toBeNull();
  });
});
