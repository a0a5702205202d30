// Every git control file is protected, not only .git/config and .git/hooks (issue 22:
// `--permission-mode acceptEdits` wrote .git/config.worktree, .git/modules/<sub>/config,
// .git/modules/*/hooks and the core.hooksPath folder). Judged through the gate with acceptEdits'
// own rules (Edit(/**), Write(/**)) for the Write and Edit tools and Bash redirections, and by
// effect with the real CLI.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { decide, type Rule } from "../../src/cli/permissions/index.js";
import { gitControlEntry, gitHooksPath } from "../../src/contract/protected.js";
import { makeWorkspace, rulesOf, type Workspace } from "../permissions/helpers.js";
import { call, cliRig, type CliRig } from "../e2e/helpers.js";

let ws: Workspace;
beforeEach(() => {
  ws = makeWorkspace();
  mkdirSync(join(ws.root, ".git", "hooks"), { recursive: true });
});
afterEach(() => ws.cleanup());

/** What --permission-mode acceptEdits adds (main.ts), and a Bash rule for the redirections. */
const ACCEPT_EDITS: () => Rule[] = () => rulesOf({ flag: { allow: ["Edit(/**)", "Write(/**)", "Bash(echo:*)", "Bash(printf:*)"] } });

const CONTROL = [
  ".git/config.worktree",
  ".git/modules/sub/config",
  ".git/modules/sub/config.worktree",
  ".git/modules/sub/hooks/pre-commit",
  ".git/modules/sub/info/attributes",
  ".git/modules/lib/nested/modules/deep/config",
  ".git/modules/lib/nested/modules/deep/hooks/post-checkout",
  ".git/worktrees/wt1/config.worktree",
  ".git/worktrees/wt1/gitdir",
  ".git/worktrees/wt1/commondir",
  ".git/info/attributes",
  "vendor/lib/.git/config",
  "vendor/lib/.git/hooks/pre-commit",
  "vendor/lib/.git",
  ".GIT/Modules/sub/CONFIG",
  ".git./modules/sub/hooks/x",
];

const NOT_CONTROL = [".git/objects/ab/cdef", ".git/refs/heads/config", ".git/logs/HEAD", "src/config", "src/hooks/useThing.ts", "docs/git/config", ".gitignore", ".github/workflows/ci.yml"];

function verdicts(rel: string): Record<string, string> {
  const file = join(ws.root, rel);
  const rules = ACCEPT_EDITS();
  return {
    Write: decide({ tool: "Write", input: { file_path: file, content: "x" }, readOnly: false }, rules, ws.env).decision,
    Edit: decide({ tool: "Edit", input: { file_path: file, old_string: "a", new_string: "b" }, readOnly: false }, rules, ws.env).decision,
    "echo >": decide({ tool: "Bash", input: { command: `echo x > '${rel}'` }, readOnly: false }, rules, ws.env).decision,
    "printf >>": decide({ tool: "Bash", input: { command: `printf '[core]\\n' >> ${rel.replace(/ /g, "\\ ")}` }, readOnly: false }, rules, ws.env).decision,
  };
}

describe("git control files under acceptEdits", () => {
  it("ask for every git control file, by Write, Edit and shell redirections (corpus)", () => {
    let tried = 0;
    let stopped = 0;
    for (const rel of CONTROL) {
      for (const [how, d] of Object.entries(verdicts(rel))) {
        tried++;
        if (d !== "allow") stopped++;
        expect({ rel, how, d }).toEqual({ rel, how, d: "ask" });
      }
    }
    expect(stopped).toBe(tried);
  });

  it("leave ordinary files (and git's data files) to the allow rule", () => {
    for (const rel of NOT_CONTROL) for (const [how, d] of Object.entries(verdicts(rel))) expect({ rel, how, d }).toEqual({ rel, how, d: "allow" });
  });

  it("protect the folder core.hooksPath names (read from the repository's config), as soon as it is set", () => {
    expect(verdicts(".githooks/pre-commit").Write).toBe("allow");
    writeFileSync(join(ws.root, ".git", "config"), '[core]\n\trepositoryformatversion = 0\n\thooksPath = ".githooks" # team hooks\n');
    for (const rel of [".githooks/pre-commit", ".githooks/sub/x"]) expect(verdicts(rel)).toEqual({ Write: "ask", Edit: "ask", "echo >": "ask", "printf >>": "ask" });
    expect(verdicts("src/a.ts").Write).toBe("allow");
    // in config.worktree, and an absolute path inside the project
    writeFileSync(join(ws.root, ".git", "config"), "[core]\n");
    writeFileSync(join(ws.root, ".git", "config.worktree"), `[core]\n  hookspath = ${join(ws.root, "tools", "hooks")}\n`);
    expect(verdicts("tools/hooks/pre-push").Edit).toBe("ask");
    expect(verdicts(".githooks/pre-commit").Write).toBe("allow");
  });

  it("reads core.hooksPath as git does: the last one in [core], quotes and comments", () => {
    expect(gitHooksPath("[core]\nhooksPath = a\n[core]\n\thookspath=\"b c\" ; note\n")).toBe("b c");
    expect(gitHooksPath("[alias]\nhooksPath = a\n")).toBeUndefined();
    expect(gitHooksPath("[core] hooksPath = inline\n")).toBe("inline");
    expect(gitControlEntry(".git/modules/sub/hooks/pre-commit")?.entry).toBe(".git/modules/sub/hooks");
  });
});

describe("acceptEdits with the real CLI", () => {
  let rig: CliRig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  it("does not write .git/config.worktree, a module's config and hooks, or the hooksPath folder", async () => {
    const targets = [".git/config.worktree", ".git/modules/sub/config", ".git/modules/sub/hooks/pre-commit", ".husky/_/pre-commit", ".git/info/attributes"];
    rig = await cliRig(
      // The module's config is read first: a Write over a file not read fails unasked (no denial).
      { replies: [call("Read", { file_path: ".git/modules/sub/config" }), ...targets.map((t) => call("Write", { file_path: t, content: "[core]\n\tfsmonitor = touch PWNED\n" })), call("Bash", { command: "echo x > .git/modules/sub/hooks/post-checkout" }), { content: "done" }] },
      { ".git/config": "[core]\n\thooksPath = .husky/_\n", ".git/modules/sub/config": "[core]\n", ".git/modules/sub/hooks/.keep": "", ".husky/_/.keep": "" },
    );
    const r = await rig.run(["-p", "edit", "--permission-mode", "acceptEdits", "--allowedTools", "Bash(echo:*)", "--output-format", "json"]);
    expect(r.code).toBe(0);
    expect(readFileSync(join(rig.env.root, ".git/modules/sub/config"), "utf8")).toBe("[core]\n");
    for (const t of [".git/config.worktree", ".git/modules/sub/hooks/pre-commit", ".husky/_/pre-commit", ".git/info/attributes", ".git/modules/sub/hooks/post-checkout"]) expect(existsSync(join(rig.env.root, t)), t).toBe(false);
    const o = JSON.parse(r.stdout) as { permission_denials: Array<{ tool_name: string }> };
    expect(o.permission_denials).toHaveLength(targets.length + 1);
  });
});
