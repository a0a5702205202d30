import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { draftAgentsMd, writeInitFile } from "../../src/cli/init.js";
import { tempDirs, writeTree, type Dirs } from "./helpers.js";

let d: Dirs;
beforeEach(() => {
  d = tempDirs();
});
afterEach(() => d.cleanup());

const NODE_REPO: Record<string, string> = {
  "package.json": JSON.stringify({
    name: "widget",
    description: "Makes widgets",
    scripts: { build: "tsc -p .", test: "vitest run", lint: "eslint .", release: "np" },
    devDependencies: { vitest: "^4.0.0", typescript: "^5.0.0" },
  }),
  "package-lock.json": "{}",
  ".gitignore": "node_modules/\n",
  "README.md": "Intro line\n\n# Widget factory\n\nMore.\n",
  "src/index.ts": "export {};\n",
  "src/util.ts": "export {};\n",
  "src/parse/lexer.ts": "export {};\n",
  "test/index.test.ts": "",
  "test/util.test.ts": "",
  "docs/guide.md": "",
  ".github/workflows/ci.yml": "on: push\n",
  "eslint.config.mjs": "export default [];\n",
  "node_modules/dep/index.js": "",
};

describe("/init drafts an AGENTS.md from what the repository shows", () => {
  it("gives a Node project's install, build, test and lint commands, and how to run one test file", async () => {
    writeTree(d.root, NODE_REPO);
    const draft = await draftAgentsMd(d.root);
    expect(draft).toContain("widget — Makes widgets — README: “Widget factory”");
    expect(draft).toContain("- Install: `npm ci`");
    expect(draft).toContain("- Build: `npm run build` (runs `tsc -p .`)");
    expect(draft).toContain("- Test: `npm test` (runs `vitest run`)");
    expect(draft).toContain("- Lint: `npm run lint` (runs `eslint .`)");
    expect(draft).toContain("- One test file: `npx vitest run <file>`");
    expect(draft).not.toContain("release");
  });

  it("describes the layout, the languages, the tests, the CI and the tooling, leaving vendored folders out", async () => {
    writeTree(d.root, NODE_REPO);
    const draft = await draftAgentsMd(d.root);
    expect(draft).toContain("- `src/` — source, 3 files, mostly TypeScript");
    expect(draft).toContain("- `test/` — tests, 2 files, mostly TypeScript");
    expect(draft).toContain("- `docs/` — documentation, 1 file");
    expect(draft).not.toContain("node_modules");
    expect(draft).toContain("Languages by file count: TypeScript (5), JavaScript (1).");
    expect(draft).toContain("- Framework: vitest.");
    expect(draft).toContain("- Test folders: `test/`.");
    expect(draft).toContain("- Test files are named `*.test.ts`");
    expect(draft).toContain("- CI: `.github/workflows/ci.yml`");
    expect(draft).toContain("- Configured: ESLint;");
  });

  it("reads a Go module's commands and its test files", async () => {
    writeTree(d.root, { "go.mod": "module example.com/tool\n\ngo 1.22\n", "main.go": "package main\n", "internal/x/x.go": "", "internal/x/x_test.go": "" });
    const draft = await draftAgentsMd(d.root);
    expect(draft).toContain("example.com/tool");
    expect(draft).toContain("- Test: `go test ./...`");
    expect(draft).toContain("- One test file: `go test ./<pkg> -run <TestName>`");
    expect(draft).toContain("- Test files are named `*_test.go`");
  });

  it("asks for the commands when it finds none, rather than inventing them", async () => {
    writeTree(d.root, { "notes.txt": "hello\n" });
    expect(await draftAgentsMd(d.root)).toContain("- (no build or test commands found: say here how to build, test and lint)");
  });

  it("carries CLAUDE.md's text over when there is no AGENTS.md, since AGENTS.md would hide it", async () => {
    writeTree(d.root, { "CLAUDE.md": "# CLAUDE.md\n\nAlways run the linter.\n" });
    const draft = await draftAgentsMd(d.root);
    expect(draft).toContain("## From CLAUDE.md\n\nAlways run the linter.");
    writeTree(d.root, { "AGENTS.md": "# Ours\n" });
    expect(await draftAgentsMd(d.root)).not.toContain("From CLAUDE.md");
  });
});

describe("writing the draft", () => {
  it("writes AGENTS.md when there is none", async () => {
    const r = await writeInitFile(d.root, "# AGENTS.md\n");
    expect(r).toMatchObject({ path: join(d.root, "AGENTS.md"), existed: false });
    expect(r.message).toMatch(/^Wrote .*AGENTS\.md/);
    expect(readFileSync(join(d.root, "AGENTS.md"), "utf8")).toBe("# AGENTS.md\n");
  });

  it("never overwrites an existing AGENTS.md: the draft goes to AGENTS.draft.md, and it says so", async () => {
    writeTree(d.root, { "AGENTS.md": "# Hand-written\n" });
    const r = await writeInitFile(d.root, "# Draft\n");
    expect(r).toMatchObject({ path: join(d.root, "AGENTS.draft.md"), existed: true });
    expect(r.message).toContain("AGENTS.md already exists and was left as it is");
    expect(readFileSync(join(d.root, "AGENTS.md"), "utf8")).toBe("# Hand-written\n");
    expect(readFileSync(join(d.root, "AGENTS.draft.md"), "utf8")).toBe("# Draft\n");
  });
});
