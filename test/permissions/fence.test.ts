import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { decide, type Decision } from "../../src/cli/permissions/index.js";
import { bash, makeWorkspace, rulesOf, type Workspace } from "./helpers.js";

let ws: Workspace;
let outside: string;
beforeEach(() => {
  ws = makeWorkspace();
  outside = join(ws.base, "outside");
  mkdirSync(outside);
});
afterEach(() => ws.cleanup());

const write = (file_path: string, layers: Parameters<typeof rulesOf>[0] = { user: { allow: ["Write", "Edit"] } }, extra: object = {}): Decision =>
  decide({ tool: "Write", input: { file_path, content: "x" }, readOnly: false }, rulesOf(layers), { ...ws.env, ...extra });

describe("the path fence denies writes outside the workspace, even where Write is allowed", () => {
  it("allows a write inside the workspace", () => {
    expect(write("src/new.ts").decision).toBe("allow");
  });

  for (const target of ["/etc/passwd", "../outside/x", "src/../../outside/x", "~/.bashrc"]) {
    it(`denies ${target}`, () => {
      const d = write(target);
      expect(d.decision).toBe("deny");
      expect(d.by).toBe("path fence");
    });
  }

  it("follows a symlink made earlier in the session, because paths are resolved at check time", () => {
    expect(write("escape/x").decision).toBe("allow");
    symlinkSync(outside, join(ws.root, "escape"));
    const d = write("escape/x");
    expect(d.decision).toBe("deny");
    expect(d.reason).toContain(join(outside, "x"));
  });

  it("follows a dangling symlink to where the write would create its target", () => {
    symlinkSync(join(outside, "not-yet"), join(ws.root, "dangling"));
    expect(write("dangling").decision).toBe("deny");
  });

  it("resolves '..' the way each writer does: Write lexically, a shell redirection after following the link", () => {
    mkdirSync(join(outside, "deep"));
    symlinkSync(join(outside, "deep"), join(ws.root, "hop"));
    // The Write tool resolves its path (node:path) before opening it: hop/../x is <root>/x.
    expect(write("hop/../x").decision).toBe("allow");
    // bash hands hop/../x to the kernel, which follows hop first: <outside>/x.
    expect(bash("echo x > hop/../x", rulesOf({ user: { allow: ["Bash(echo:*)"] } }), ws.env)).toBe("deny");
  });

  it("refuses a symlink loop", () => {
    symlinkSync(join(ws.root, "loop-b"), join(ws.root, "loop-a"));
    symlinkSync(join(ws.root, "loop-a"), join(ws.root, "loop-b"));
    expect(write("loop-a/x").decision).toBe("deny");
  });

  it("admits permissions.additionalDirectories", () => {
    expect(write(join(outside, "x"), undefined, { additionalDirectories: [outside] }).decision).toBe("allow");
    expect(write(join(outside, "x"), undefined, { additionalDirectories: ["../outside"] }).decision).toBe("allow");
  });

  it("admits a path an allow rule names", () => {
    const d = write(join(outside, "x"), { user: { allow: [`Write(/${outside}/**)`] } });
    expect(d.decision).toBe("allow");
  });

  it("does not let a bare Write allow name a path", () => {
    expect(write(join(outside, "x"), { user: { allow: ["Write"] } }).decision).toBe("deny");
  });

  it("does not let an allow rule lift it through a symlink (the rule must name where the write lands)", () => {
    symlinkSync(outside, join(ws.root, "escape"));
    expect(write("escape/x", { user: { allow: ["Edit(escape/**)"] } }).decision).toBe("deny");
  });

  it("keeps a deny rule a deny inside the workspace", () => {
    expect(write("src/gen/a.ts", { user: { allow: ["Write"] }, project: { deny: ["Edit(src/gen/**)"] } }).decision).toBe("deny");
  });

  it("asks before a change to files that set rules or run programs later, even where Write is allowed", () => {
    for (const f of [".deepcode/settings.json", ".deepcode/settings.local.json", ".mcp.json", ".git/config", ".git/hooks/pre-commit"]) {
      const d = write(f);
      expect(d.decision).toBe("ask");
      expect(d.by).toBe("protected file");
    }
  });
});

describe("Bash redirections count as writes to their targets", () => {
  const rules = rulesOf({ project: { allow: ["Bash(echo:*)"] } });

  it("resolves relative targets against Bash's current folder", () => {
    const inSrc = { ...ws.env, cwd: join(ws.root, "src") };
    const withEdit = rulesOf({ project: { allow: ["Bash(echo:*)", "Edit(ok.txt)"] } });
    expect(bash("echo x > ../ok.txt", withEdit, inSrc)).toBe("allow");
    expect(bash("echo x > ../../escape.txt", withEdit, inSrc)).toBe("deny");
  });

  it("needs what an Edit of the target needs: an allow of the command alone asks, an Edit or Write rule for the path lifts it", () => {
    const d = decide({ tool: "Bash", input: { command: "echo x > notes.txt" }, readOnly: false }, rules, ws.env);
    expect(d.decision).toBe("ask");
    expect(d.reason).toMatch(/through the redirection '>'/);
    expect(bash("echo x > notes.txt", rulesOf({ project: { allow: ["Bash(echo:*)", "Write(notes.txt)"] } }), ws.env)).toBe("allow");
    expect(bash("echo x > other.txt", rulesOf({ project: { allow: ["Bash(echo:*)", "Write(notes.txt)"] } }), ws.env)).toBe("ask");
    expect(bash("echo x > notes.txt", rulesOf({ project: { allow: ["Bash"] } }), ws.env)).toBe("allow");
  });

  it("applies Edit rules to redirection targets", () => {
    const withDeny = rulesOf({ project: { allow: ["Bash(echo:*)"], deny: ["Edit(.env)"] } });
    expect(bash("echo SECRET=1 >> .env", withDeny, ws.env)).toBe("deny");
  });

  it("applies Read rules and the secrets list to files an allowed reader prints", () => {
    const cat = rulesOf({ project: { allow: ["Bash(cat:*)"], deny: ["Read(private/**)"] } });
    expect(bash("cat README.md", cat, ws.env)).toBe("allow");
    expect(bash("cat private/key.txt", cat, ws.env)).toBe("deny");
    expect(bash("cat ~/.ssh/id_rsa", cat, ws.env)).toBe("ask");
    expect(bash("cat < .env", cat, ws.env)).toBe("ask");
  });

  it("checks the files common tools write, so an allowed rm or cp stays inside the workspace", () => {
    const tools = rulesOf({ project: { allow: ["Bash(rm:*)", "Bash(cp:*)", "Bash(mv:*)", "Bash(touch:*)", "Bash(dd:*)"] } });
    expect(bash("rm -rf build", tools, ws.env)).toBe("allow");
    expect(bash("rm -rf /", tools, ws.env)).toBe("deny");
    expect(bash("rm -rf ../outside", tools, ws.env)).toBe("deny");
    expect(bash("cp src/a.ts /etc/a.ts", tools, ws.env)).toBe("deny");
    expect(bash("cp -t /etc src/a.ts", tools, ws.env)).toBe("deny");
    expect(bash("mv ../outside/a src/", tools, ws.env)).toBe("deny");
    expect(bash("touch src/a src/b", tools, ws.env)).toBe("allow");
    expect(bash("dd if=/dev/zero of=/etc/x", tools, ws.env)).toBe("deny");
  });

  it("lets rm remove a symlink itself, but not reach through it", () => {
    symlinkSync(outside, join(ws.root, "shortcut"));
    const rm = rulesOf({ project: { allow: ["Bash(rm:*)", "Bash(chmod:*)"] } });
    expect(bash("rm shortcut", rm, ws.env)).toBe("allow");
    expect(bash("rm -rf shortcut/", rm, ws.env)).toBe("deny");
    expect(bash("rm -rf shortcut/*", rm, ws.env)).toBe("deny");
    expect(bash("chmod 777 short*", rm, ws.env)).toBe("deny"); // chmod follows the link it matches
  });

  it("asks before a redirection into a protected file", () => {
    expect(bash("echo '{}' > .deepcode/settings.local.json", rules, ws.env)).toBe("ask");
  });

  it("lets writes to /dev/null and file-descriptor duplications through", () => {
    expect(bash("echo x > /dev/null 2>&1", rules, ws.env)).toBe("allow");
    expect(bash("echo x >&2", rules, ws.env)).toBe("allow");
  });
});
