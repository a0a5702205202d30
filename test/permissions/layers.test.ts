import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decide, SessionRules, type ToolCall } from "../../src/cli/permissions/index.js";
import { makeWorkspace, rulesOf, type LayerRules, type Workspace } from "./helpers.js";

let ws: Workspace;
beforeAll(() => {
  ws = makeWorkspace();
});
afterAll(() => ws.cleanup());

const bashCall = (command: string): ToolCall => ({ tool: "Bash", input: { command }, readOnly: false });
const editCall = (file_path: string): ToolCall => ({ tool: "Edit", input: { file_path }, readOnly: false });
const readCall = (file_path: string): ToolCall => ({ tool: "Read", input: { file_path }, readOnly: true });

type Layers = Parameters<typeof rulesOf>[0];
const everywhere = (r: LayerRules): Layers => ({ user: r, project: r, local: r, flag: r, session: r });

// deny > ask > allow whatever the layer: the table walks the combinations a team relies on.
const cases: Array<[name: string, layers: Layers, call: ToolCall, expected: "allow" | "ask" | "deny"]> = [
  ["a managed deny beats an allow in every other layer", { ...everywhere({ allow: ["Bash(rm:*)"] }), managed: { deny: ["Bash(rm:*)"] } }, bashCall("rm x"), "deny"],
  ["a managed bare deny beats a specific session allow", { managed: { deny: ["Bash"] }, session: { allow: ["Bash(ls:*)"] } }, bashCall("ls"), "deny"],
  ["a managed deny beats a managed allow listed before it", { managed: { allow: ["Edit"], deny: ["Edit(src/**)"] } }, editCall("src/a.ts"), "deny"],
  ["a user allow cannot beat a project ask", { user: { allow: ["Bash(npm:*)"] }, project: { ask: ["Bash(npm publish:*)"] } }, bashCall("npm publish"), "ask"],
  ["a user allow applies where the project says nothing", { user: { allow: ["Bash(npm:*)"] }, project: { ask: ["Bash(npm publish:*)"] } }, bashCall("npm install"), "allow"],
  ["a project deny beats a local allow", { project: { deny: ["Bash(curl:*)"] }, local: { allow: ["Bash(curl:*)"] } }, bashCall("curl x"), "deny"],
  ["a local ask beats a flag allow", { local: { ask: ["Edit"] }, flag: { allow: ["Edit"] } }, editCall("a.ts"), "ask"],
  ["a flag deny beats a managed allow (the lower layer's deny still wins)", { flag: { deny: ["Bash(make:*)"] }, managed: { allow: ["Bash(make:*)"] } }, bashCall("make"), "deny"],
  ["a user deny beats a managed allow", { user: { deny: ["Read(secret.txt)"] }, managed: { allow: ["Read"] } }, readCall("secret.txt"), "deny"],
  ["a session allow cannot beat a deny", { user: { deny: ["Bash(rm:*)"] }, session: { allow: ["Bash(rm:*)"] } }, bashCall("rm x"), "deny"],
  ["a session allow cannot beat an explicit ask rule", { project: { ask: ["Bash(git commit:*)"] }, session: { allow: ["Bash(git:*)"] } }, bashCall("git commit -m x"), "ask"],
  ["a session allow turns the default ask into an allow", { session: { allow: ["Bash(npm test:*)"] } }, bashCall("npm test"), "allow"],
  ["a session allow of Edit cannot beat a managed path deny", { managed: { deny: ["Edit(src/**)"] }, session: { allow: ["Edit"] } }, editCall("src/a.ts"), "deny"],
  ["an allow turns the default ask of Edit into an allow", { user: { allow: ["Edit"] } }, editCall("a.ts"), "allow"],
  ["an ask rule turns a read-only tool's default allow into an ask", { project: { ask: ["Read"] } }, readCall("a.ts"), "ask"],
  ["the position of a deny in the list does not matter", { project: { allow: ["Bash(ls:*)", "Bash"], deny: ["Bash(ls:*)"] } }, bashCall("ls"), "deny"],
  ["with no rules at all, Bash asks", {}, bashCall("ls"), "ask"],
];

describe("deny > ask > allow, whatever the layer", () => {
  for (const [name, layers, call, expected] of cases) {
    it(name, () => {
      const d = decide(call, rulesOf(layers), ws.env);
      expect(d.decision, d.reason).toBe(expected);
    });
  }

  it("names the deciding rule and its layer", () => {
    const d = decide(bashCall("rm x"), rulesOf({ user: { allow: ["Bash(rm:*)"] }, managed: { deny: ["Bash(rm:*)"] } }), ws.env);
    expect(d.by).toBe("Bash(rm:*) (managed)");
    expect(d.rule?.layer).toBe("managed");
  });

  it("denies everything, allow rules included, when the managed policy is broken", () => {
    const rules = rulesOf({ user: { allow: ["Bash", "Read", "Edit"] } });
    for (const call of [bashCall("ls"), readCall("a.ts"), editCall("a.ts")]) {
      const d = decide(call, rules, { ...ws.env, managedBroken: true });
      expect(d.decision).toBe("deny");
      expect(d.reason).toMatch(/managed policy file is malformed/);
    }
  });
});

describe("the session layer holds only allow rules", () => {
  it("stores what `a` remembers as allow rules of the session layer, and forgets them on request", () => {
    const session = new SessionRules();
    const rule = session.add("Bash(npm test:*)");
    expect(rule).toMatchObject({ kind: "allow", layer: "session", text: "Bash(npm test:*)" });
    session.add("Bash(npm test:*)");
    expect(session.rules()).toHaveLength(1);
    expect(decide(bashCall("npm test"), [...session.rules()], ws.env).decision).toBe("allow");
    expect(session.forget()).toBe(1);
    expect(decide(bashCall("npm test"), [...session.rules()], ws.env).decision).toBe("ask");
  });

  it("refuses to remember text that is not a rule", () => {
    expect(() => new SessionRules().add("Glob(git:*)")).toThrow(/cannot remember/);
  });
});

describe("temporary session rules (a custom command's allowed-tools)", () => {
  it("allow while they are held, and are gone when released, leaving `a` answers in place", () => {
    const s = new SessionRules();
    s.add("Edit");
    const release = s.temporary(["Bash(git status:*)", "Edit"]);
    expect(s.rules().map((r) => r.text)).toEqual(["Edit", "Bash(git status:*)", "Edit"]);
    release();
    expect(s.rules().map((r) => r.text)).toEqual(["Edit"]);
  });
});
