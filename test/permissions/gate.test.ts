import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { join } from "node:path";
import { Chain } from "../../src/core/chain.js";
import type { EventOf, FsWriteResult, GateDecision } from "../../src/contract/index.js";
import { fenceWriteHook, registerPermissionGate, SessionRules, WriteRefusedError, type Rule } from "../../src/cli/permissions/index.js";
import { makeWorkspace, rulesOf, type Workspace } from "./helpers.js";

let ws: Workspace;
let chain: Chain;
let rules: Rule[];
let reports: string[];
beforeEach(() => {
  ws = makeWorkspace();
  chain = new Chain();
  rules = [];
  reports = [];
  chain.onReport((r) => reports.push(`${r.owner}: ${r.message}`));
});
afterEach(() => ws.cleanup());

function gate(managedBroken = false, extra: () => readonly Rule[] = () => []): void {
  registerPermissionGate(chain, { rules: () => [...rules, ...extra()], env: () => ({ root: ws.root, home: ws.home, cwd: ws.root }), managedBroken });
}

function check(tool: string, input: Record<string, string>, readOnly: boolean | null = false): Promise<GateDecision> {
  const e: EventOf<"tool.check"> = { type: "tool.check", sessionId: "s", tool, input, callId: "c1", readOnly, step: 1 } as EventOf<"tool.check">;
  return chain.dispatch(e);
}

/** A user-tier hook, as a Claude Code PreToolUse hook would be: answers with `decision`, or passes. */
function userHook(decision: GateDecision["decision"] | "pass", seen: string[] = []): string[] {
  chain.on("user", "pre-tool-use", "tool.check", null, async (e, next) => {
    seen.push(e.tool);
    if (decision === "pass") return next();
    return { decision, reason: `hook says ${decision}`, by: "hook:pre-tool-use" };
  });
  return seen;
}

describe("the permission gate on tool.check", () => {
  it("says, with an ask, what an `a` answer would remember for the session", async () => {
    gate();
    expect(await check("Bash", { command: "npm test -- --watch=false" })).toMatchObject({ decision: "ask", remember: "Bash(npm test:*)" });
    expect(await check("Edit", { file_path: "src/a.ts", old_string: "a", new_string: "b" })).toMatchObject({ decision: "ask", remember: "Edit" });
  });

  it("answers a deny at once: no hook downstream runs", async () => {
    rules = rulesOf({ managed: { deny: ["Bash(rm:*)"] } });
    gate();
    const seen = userHook("allow");
    const r = await check("Bash", { command: "rm -rf x" });
    expect(r).toMatchObject({ decision: "deny", by: "Bash(rm:*) (managed)" });
    expect(seen).toEqual([]);
  });

  it("falls back to its own defaults when no hook answers", async () => {
    gate();
    userHook("pass");
    expect((await check("Read", { file_path: "a.ts" }, true)).decision).toBe("allow");
    expect((await check("Edit", { file_path: "a.ts" })).decision).toBe("ask");
    expect((await check("Bash", { command: "make" })).decision).toBe("ask");
    expect((await check("Ghost", {}, null)).decision).toBe("deny");
  });

  it("lets a hook's allow turn the default ask into an allow, and names the hook", async () => {
    gate();
    userHook("allow");
    expect(await check("Bash", { command: "make" })).toMatchObject({ decision: "allow", by: "hook:pre-tool-use" });
  });

  it("keeps a rule's explicit ask an ask even when a hook allows", async () => {
    rules = rulesOf({ project: { ask: ["Bash(git push:*)"] } });
    gate();
    userHook("allow");
    expect(await check("Bash", { command: "git push" })).toMatchObject({ decision: "ask", by: "Bash(git push:*) (project)" });
  });

  it("keeps the ask for a command it cannot read even when a hook allows", async () => {
    gate();
    userHook("allow");
    expect(await check("Bash", { command: "$CMD x" })).toMatchObject({ decision: "ask", by: "shell parser" });
  });

  it("lets a hook deny what a rule allows", async () => {
    rules = rulesOf({ user: { allow: ["Bash(make:*)"] } });
    gate();
    userHook("deny");
    expect(await check("Bash", { command: "make" })).toMatchObject({ decision: "deny", by: "hook:pre-tool-use" });
  });

  it("lets a hook ask about what a rule allows", async () => {
    rules = rulesOf({ user: { allow: ["Bash(make:*)"] } });
    gate();
    userHook("ask");
    expect((await check("Bash", { command: "make" })).decision).toBe("ask");
  });

  it("names the allowing rule and its layer when rule and hook agree", async () => {
    rules = rulesOf({ local: { allow: ["Bash(make:*)"] } });
    gate();
    userHook("allow");
    expect(await check("Bash", { command: "make" })).toMatchObject({ decision: "allow", by: "Bash(make:*) (local)" });
  });

  it("denies when a downstream hook throws (the chain fails closed)", async () => {
    rules = rulesOf({ user: { allow: ["Bash(make:*)"] } });
    gate();
    chain.on("user", "broken", "tool.check", null, () => {
      throw new Error("boom");
    });
    expect((await check("Bash", { command: "make" })).decision).toBe("deny");
  });

  it("lets a builtin mod registered after the gate still answer", async () => {
    gate();
    chain.on("builtin", "plan-mode", "tool.check", null, () => ({ decision: "allow", by: "plan-mode" }));
    expect(await check("Bash", { command: "make" })).toMatchObject({ decision: "allow", by: "plan-mode" });
  });

  it("shows hooks in between the gate's own default, not the chain tail's deny", async () => {
    const seen: string[] = [];
    chain.on("builtin", "call-storm", "tool.check", null, async (_e, next) => {
      const r = await next();
      seen.push(r.decision);
      return r;
    });
    gate();
    expect((await check("Edit", { file_path: "a.ts" })).decision).toBe("ask");
    expect((await check("Read", { file_path: "a.ts" }, true)).decision).toBe("allow");
    expect(seen).toEqual(["ask", "allow"]);
  });

  it("does not take a hook's deny signed 'core' for silence", async () => {
    rules = rulesOf({ user: { allow: ["Bash(make:*)"] } });
    gate();
    chain.on("user", "sneaky", "tool.check", null, () => ({ decision: "deny", reason: "no", by: "core" }));
    expect((await check("Bash", { command: "make" })).decision).toBe("deny");
  });

  it("reads the rules at every check, so a session's `a` answer applies to the next call", async () => {
    const session = new SessionRules();
    gate(false, () => session.rules());
    expect((await check("Bash", { command: "npm test" })).decision).toBe("ask");
    session.add("Bash(npm test:*)");
    expect((await check("Bash", { command: "npm test" })).decision).toBe("allow");
  });

  it("denies everything when the managed policy is broken", async () => {
    rules = rulesOf({ user: { allow: ["Read", "Bash"] } });
    gate(true);
    userHook("allow");
    expect((await check("Read", { file_path: "a.ts" }, true)).decision).toBe("deny");
  });

  it("removes its hooks when unregistered", () => {
    const off = registerPermissionGate(chain, { rules: () => [], env: () => ({ root: ws.root, home: ws.home, cwd: ws.root }), managedBroken: false });
    // One hook on tool.check; its default answer is the chain's (setGateDefault), not a hook's.
    expect(chain.hooksFor("tool.check")).toHaveLength(1);
    expect(chain.hasGateDefault("tool.check")).toBe(true);
    expect(chain.hooksFor("fs.write")).toHaveLength(1);
    off();
    expect(chain.hooksFor("tool.check")).toHaveLength(0);
    expect(chain.hasGateDefault("tool.check")).toBe(false);
  });
});

describe("the fs.write backstop", () => {
  const opts = (managedBroken = false) => ({ rules: () => rules, env: () => ({ root: ws.root, home: ws.home, cwd: ws.root }), managedBroken });
  const done: FsWriteResult = { stat: { size: 1, mtimeMs: 0, mode: 0o644, isFile: true, isDirectory: false }, created: true };
  const write = (path: string): EventOf<"fs.write"> => ({ type: "fs.write", path, data: "x" });

  it("refuses a write outside the workspace without passing it on", () => {
    let passed = false;
    const next = async () => {
      passed = true;
      return done;
    };
    expect(() => fenceWriteHook(opts())(write("/etc/motd"), next)).toThrow(WriteRefusedError);
    expect(() => fenceWriteHook(opts())(write(join(ws.root, "..", "x")), next)).toThrow(/outside the workspace/);
    expect(passed).toBe(false);
  });

  it("refuses a write an Edit deny rule covers", () => {
    rules = rulesOf({ project: { deny: ["Edit(src/gen/**)"] } });
    expect(() => fenceWriteHook(opts())(write(join(ws.root, "src/gen/a.ts")), async () => done)).toThrow(/denied/);
  });

  it("refuses every write when the managed policy is broken", () => {
    expect(() => fenceWriteHook(opts(true))(write(join(ws.root, "a.txt")), async () => done)).toThrow(/managed policy/);
  });

  it("refuses a write outside the workspace through a real Chain: the core never runs", async () => {
    const landed: string[] = [];
    chain.setCore("fs.write", (e) => {
      landed.push(e.path);
      return done;
    });
    registerPermissionGate(chain, opts());
    await expect(chain.dispatch(write("/etc/motd"))).rejects.toBeInstanceOf(WriteRefusedError);
    await expect(chain.dispatch(write(join(ws.root, "..", "escape.txt")))).rejects.toThrow(/outside the workspace/);
    expect(landed).toEqual([]);
  });

  it("passes a write inside the workspace through to the core", async () => {
    const landed: string[] = [];
    chain.setCore("fs.write", (e) => {
      landed.push(e.path);
      return done;
    });
    gate();
    await chain.dispatch(write(join(ws.root, "src/a.ts")));
    expect(landed).toEqual([join(ws.root, "src/a.ts")]);
  });
});
