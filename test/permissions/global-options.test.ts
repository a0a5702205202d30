// A deny (or ask) on a subcommand is not bypassed by a global option in front of it: programs
// read options before their subcommand (`git -C . push`), and deepcode does not know which
// options take a value, so such a command *may* be the denied one — at least an ask. Allow rules
// stay strict: they never match through such options unless the rule already ends before them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeWorkspace, rulesOf, bash, type Workspace } from "./helpers.js";

let ws: Workspace;
beforeAll(() => {
  ws = makeWorkspace();
});
afterAll(() => ws.cleanup());

describe("global options before a denied subcommand", () => {
  const gitAllowedPushDenied = rulesOf({ user: { allow: ["Bash(git:*)"] }, project: { deny: ["Bash(git push:*)"] } });

  it("asks for git -C . push and git --no-pager push where git is allowed and git push denied (the reproduction)", () => {
    expect(bash("git -C . push", gitAllowedPushDenied, ws.env)).toBe("ask");
    expect(bash("git --no-pager push", gitAllowedPushDenied, ws.env)).toBe("ask");
    expect(bash("git push", gitAllowedPushDenied, ws.env)).toBe("deny");
  });

  it("asks without any allow rule too, and names the deny rule that might match", () => {
    const denyOnly = rulesOf({ project: { deny: ["Bash(git push:*)"] } });
    for (const c of ["git -C . push", "git --no-pager push origin main"]) {
      expect(bash(c, denyOnly, ws.env), c).toBe("ask");
    }
  });

  it("still allows a command whose words cannot spell the denied subcommand", () => {
    expect(bash("git -C src status", gitAllowedPushDenied, ws.env)).toBe("allow");
    expect(bash("git --no-pager log --oneline", gitAllowedPushDenied, ws.env)).toBe("allow");
  });

  it("treats an option that mentions the subcommand (an alias made on the command line) as a maybe", () => {
    expect(bash("git -c alias.p=push p", gitAllowedPushDenied, ws.env)).toBe("ask");
  });

  it("applies to ask rules, exact rules and wildcard rules alike", () => {
    expect(bash("npm --prefix web run deploy", rulesOf({ user: { allow: ["Bash(npm:*)"] }, project: { ask: ["Bash(npm run deploy:*)"] } }), ws.env)).toBe("ask");
    expect(bash("git --no-pager push", rulesOf({ user: { allow: ["Bash(git:*)"] }, project: { deny: ["Bash(git push)"] } }), ws.env)).toBe("ask");
    expect(bash("git -C . push origin", rulesOf({ user: { allow: ["Bash(git:*)"] }, project: { deny: ["Bash(git push *)"] } }), ws.env)).toBe("ask");
  });

  it("applies between later words of a rule, and to rules that name options", () => {
    expect(bash("npm run --silent build", rulesOf({ user: { allow: ["Bash(npm:*)"] }, project: { deny: ["Bash(npm run build:*)"] } }), ws.env)).toBe("ask");
    expect(bash("rm -v -rf build", rulesOf({ user: { allow: ["Bash(rm:*)"] }, project: { deny: ["Bash(rm -rf:*)"] } }), ws.env)).toBe("ask");
  });
});

describe("allow rules do not match through options", () => {
  it("does not let Bash(git push:*) allow git -C . push, nor Bash(git push *) allow git --no-pager push", () => {
    expect(bash("git -C . push", rulesOf({ user: { allow: ["Bash(git push:*)"] } }), ws.env)).toBe("ask");
    expect(bash("git --no-pager push", rulesOf({ user: { allow: ["Bash(git push *)"] } }), ws.env)).toBe("ask");
    expect(bash("git --no-pager push", rulesOf({ user: { allow: ["Bash(git push)"] } }), ws.env)).toBe("ask");
  });

  it("lets a prefix rule that ends before the options allow them", () => {
    expect(bash("git -C . push", rulesOf({ user: { allow: ["Bash(git:*)"] } }), ws.env)).toBe("allow");
    expect(bash("git --no-pager push", rulesOf({ user: { allow: ["Bash(git *)"] } }), ws.env)).toBe("allow");
  });
});
