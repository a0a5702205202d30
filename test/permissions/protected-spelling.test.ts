// Protected project paths by another spelling: on a case-insensitive volume (macOS, Windows, a
// casefold folder or a mounted FAT/NTFS disk on Linux) `.GIT/hooks/pre-commit` is the hook git
// runs, and Windows drops trailing dots and spaces (`.mcp.json.` is `.mcp.json`). Every protected
// path, in every spelling a file system could resolve to it, asks under an Edit allow.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { decide } from "../../src/cli/permissions/index.js";
import { PROTECTED_PROJECT_PATHS, foldName, protectedProjectEntry } from "../../src/contract/protected.js";
import { makeWorkspace, rulesOf, type Workspace } from "./helpers.js";

let ws: Workspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.cleanup());

/** A file inside each protected entry, as the contract spells it. */
const SAMPLES = PROTECTED_PROJECT_PATHS.map((e) => (e.names ? [e.path, e.example].filter((x) => x).join("/") : e.tree ? `${e.path}/x/y.md` : e.path));

/** Ways a file system could name the same file. Each maps every segment. */
const SPELLINGS: Record<string, (seg: string) => string> = {
  "upper case": (s) => s.toUpperCase(),
  "mixed case": (s) => [...s].map((c, i) => (i % 2 ? c.toUpperCase() : c)).join(""),
  "a trailing dot": (s) => `${s}.`,
  "trailing dots and spaces": (s) => `${s}. .`,
  "a trailing space": (s) => `${s} `,
  "an NTFS stream suffix": (s) => `${s}::$DATA`,
  "an invisible joiner (HFS+ ignores it)": (s) => `${s.slice(0, 2)}\u200c${s.slice(2)}`,
  "a byte-order mark inside": (s) => `\ufeff${s}`,
  "NFD (the same, for ASCII names)": (s) => s.normalize("NFD"),
};

describe("a protected path by another spelling still asks", () => {
  for (const sample of SAMPLES) {
    for (const [how, spell] of Object.entries(SPELLINGS)) {
      // The first segment respelt, then every segment.
      for (const which of ["first", "every"] as const) {
        const segs = sample.split("/");
        const respelt = segs.map((s, i) => (which === "every" || i === 0 ? spell(s) : s)).join("/");
        it(`${JSON.stringify(respelt)} (${sample}, ${how}, ${which} segment)`, () => {
          expect(protectedProjectEntry(respelt), respelt).not.toBeNull();
          const d = decide({ tool: "Edit", input: { file_path: respelt, old_string: "a", new_string: "b" }, readOnly: false }, rulesOf({ user: { allow: ["Edit", "Edit(**)"] } }), ws.env);
          expect(d.decision, d.reason).toBe("ask");
          expect(d.by).toBe("protected file");
        });
      }
    }
  }

  it("takes 8.3 short names for the names they can stand for (GIT~1, DEEPCO~1, MCPJSO~1.JSO)", () => {
    for (const p of ["GIT~1/hooks/pre-commit", "git~2/config", "DEEPCO~1/settings.json", "MCPJSO~1.JSO", "CLAUDE~1/commands/x.md"]) expect(protectedProjectEntry(p), p).not.toBeNull();
  });

  it("names the spelling it saw in the reason", () => {
    const d = decide({ tool: "Write", input: { file_path: ".GIT/hooks/pre-commit", content: "x" }, readOnly: false }, rulesOf({ user: { allow: ["Write"] } }), ws.env);
    expect(d.reason).toMatch(/^\.git\/hooks\/ holds programs git runs \(\.GIT\/hooks names it on a case-insensitive or Windows file system\)/);
  });

  it("leaves look-alikes that no file system resolves to a protected path alone", () => {
    for (const p of [".gitx/hooks/a", "git/hooks/a", ".mcp.jsonx", ".mcp.json.bak", "x.mcp.json", ".deepcodes/a", ".claude/notes.md", "src/.github/hooks/a"]) expect(protectedProjectEntry(p), p).toBeNull();
    // A nested repository's git directory is a git control place of its own (git run in src/
    // obeys src/.git/hooks), so it is protected at any depth (issue 22).
    expect(protectedProjectEntry("src/.GIT/hooks/a")?.entry).toBe("src/.GIT/hooks");
  });

  it("folds one segment the way the gate compares it", () => {
    expect(foldName(".MCP.json. ")).toBe(".mcp.json");
    expect(foldName(".g\u200dit")).toBe(".git");
    expect(foldName("...")).toBe("...");
  });
});
