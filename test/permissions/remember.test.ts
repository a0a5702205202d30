import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { decide, rememberRule, SessionRules, type ToolCall } from "../../src/cli/permissions/index.js";
import { makeWorkspace, rulesOf, type Workspace } from "./helpers.js";

let ws: Workspace;
beforeAll(() => {
  ws = makeWorkspace();
});
afterAll(() => ws.cleanup());

const bashCall = (command: string): ToolCall => ({ tool: "Bash", input: { command }, readOnly: false });

describe("what `a` remembers for a Bash command", () => {
  const cases: Array<[string, string]> = [
    ["npm test", "Bash(npm test:*)"],
    ["npm test -- --watch", "Bash(npm test:*)"],
    ["git commit -m 'fix: x'", "Bash(git commit:*)"],
    ["ls -la src", "Bash(ls:*)"],
    ["npm run build", "Bash(npm run build:*)"],
    ["cargo build --release", "Bash(cargo build:*)"],
    ["python -m pytest -x", "Bash(python -m pytest:*)"],
    ["NODE_ENV=test npm test", "Bash(npm test:*)"],
    ["cd src && npm test", "Bash(npm test:*)"],
    ["npm test && npm test -- --coverage", "Bash(npm test:*)"],
    ["npm test | tail -5", "Bash(npm test | tail -5)"],
    ["npm test; git status", "Bash(npm test; git status)"],
    ["python script.py", "Bash(python script.py)"],
    ["node build.js --prod", "Bash(node build.js --prod)"],
    ["bash deploy.sh", "Bash(bash deploy.sh)"],
    ["PATH=/tmp make", "Bash(PATH=/tmp make)"],
    ["sudo apt-get install x", "Bash(sudo apt-get install x)"],
    ["./scripts/check.sh", "Bash(./scripts/check.sh)"],
    ["$RUNNER test", "Bash($RUNNER test)"],
    ["ls *.ts | wc -l", "Bash(ls \\*.ts | wc -l)"],
  ];
  for (const [command, remembered] of cases) {
    it(`remembers ${JSON.stringify(command)} as ${remembered}`, () => {
      expect(rememberRule(bashCall(command), ws.env)).toBe(remembered);
    });
  }
});

describe("what `a` remembers for other tools", () => {
  it("remembers the tool's name", () => {
    expect(rememberRule({ tool: "Edit", input: { file_path: "src/a.ts" }, readOnly: false }, ws.env)).toBe("Edit");
    expect(rememberRule({ tool: "Write", input: { file_path: "src/a.ts" }, readOnly: false }, ws.env)).toBe("Write");
    expect(rememberRule({ tool: "mcp__github__create_issue", input: {}, readOnly: false }, ws.env)).toBe("mcp__github__create_issue");
  });

  it("remembers just the path for a secret or a protected settings file, which a bare rule would not cover", () => {
    expect(rememberRule({ tool: "Read", input: { file_path: "~/.ssh/config" }, readOnly: true }, ws.env)).toBe(`Read(/${join(ws.home, ".ssh/config")})`);
    expect(rememberRule({ tool: "Edit", input: { file_path: ".deepcode/settings.json" }, readOnly: false }, ws.env)).toBe(`Edit(/${join(ws.root, ".deepcode/settings.json")})`);
  });
});

describe("a remembered rule goes through the same decision", () => {
  const answer = (call: ToolCall, layers: Parameters<typeof rulesOf>[0] = {}): { remembered: string; before: string; after: string } => {
    const session = new SessionRules();
    const settings = rulesOf(layers);
    const before = decide(call, settings, ws.env).decision;
    const remembered = rememberRule(call, ws.env);
    session.add(remembered);
    return { remembered, before, after: decide(call, [...settings, ...session.rules()], ws.env).decision };
  };

  it("allows the same command next time", () => {
    expect(answer(bashCall("npm test"))).toEqual({ remembered: "Bash(npm test:*)", before: "ask", after: "allow" });
  });

  it("allows exactly the same compound line next time, and nothing else", () => {
    const session = new SessionRules();
    session.add(rememberRule(bashCall("ls *.ts | wc -l"), ws.env));
    expect(decide(bashCall("ls *.ts | wc -l"), session.rules(), ws.env).decision).toBe("allow");
    expect(decide(bashCall("ls *.ts | wc -c"), session.rules(), ws.env).decision).toBe("ask");
    expect(decide(bashCall("ls x.ts | wc -l"), session.rules(), ws.env).decision).toBe("ask");
  });

  it("cannot beat an explicit ask rule of a settings layer", () => {
    expect(answer(bashCall("git push origin main"), { project: { ask: ["Bash(git push:*)"] } }).after).toBe("ask");
  });

  it("cannot beat a deny rule of a settings layer", () => {
    const call = bashCall("npm publish");
    const session = new SessionRules();
    session.add(rememberRule(call, ws.env));
    expect(decide(call, [...rulesOf({ managed: { deny: ["Bash(npm publish:*)"] } }), ...session.rules()], ws.env).decision).toBe("deny");
  });

  it("cannot lift the path fence", () => {
    const call: ToolCall = { tool: "Write", input: { file_path: "/etc/motd", content: "x" }, readOnly: false };
    expect(answer(call).after).toBe("deny");
  });

  it("makes a secret readable by that path only", () => {
    const r = answer({ tool: "Read", input: { file_path: ".env" }, readOnly: true });
    expect(r.before).toBe("ask");
    expect(r.after).toBe("allow");
  });
});
