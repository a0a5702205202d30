// Claude Code's managed keys an administrator brings along (issue #42, item 3): each does what
// Claude Code's does, in a real assembled session — `disableAllHooks`, `allowManagedPermissionRulesOnly`,
// `availableModels` — and `forceLoginMethod` (a Claude sign-in deepcode does not have) no longer
// breaks the whole policy. Judged by effect: which hook ran, whether the file was made, which
// model the API was asked for.
import { afterEach, describe, expect, it } from "vitest";
import { bashCall, toolResults } from "../permissions-e2e/helpers.js";
import { logged as loggedIn, logging, openSession, touchIn, type Session, type SessionOptions } from "../hooks/helpers.js";

let s: Session | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

const logged = (): string[] => loggedIn(s!.box.root);

async function touch(o: Partial<SessionOptions>): Promise<{ made: boolean; told: string }> {
  const r = await touchIn({ ...o });
  s = r.session;
  return r;
}

describe("disableAllHooks", () => {
  it("in the managed policy, stops every hook — the policy's own too", async () => {
    const r = await touch({ answer: "allow", user: { hooks: logging("user") }, managed: { disableAllHooks: true, hooks: logging("managed") } });
    expect(r.made).toBe(true); // the policy holds (it is not "broken"), and the command ran
    expect(logged()).toEqual([]);
  });

  it("in a person's settings, stops theirs and the project's, but never the managed policy's", async () => {
    await touch({ answer: "allow", user: { disableAllHooks: true, hooks: logging("user") }, project: { hooks: logging("project") }, managed: { hooks: logging("managed") } });
    expect(logged()).toEqual(["managed"]);
    expect(s!.warnings.join("\n")).toMatch(/hooks ignored — .*settings\.json sets disableAllHooks/);
  });
});

describe("allowManagedPermissionRulesOnly", () => {
  it("ignores a person's allow rule: the command asks (and the person's no stands)", async () => {
    const r = await touch({ user: { permissions: { allow: ["Bash(touch:*)"] } }, managed: { allowManagedPermissionRulesOnly: true } });
    expect(r.made).toBe(false);
    expect(s!.asked).toEqual(["Bash"]);
  });

  it("keeps the managed policy's own allow rule, and a person's deny", async () => {
    const a = await touch({ managed: { allowManagedPermissionRulesOnly: true, permissions: { allow: ["Bash(touch:*)"] } } });
    expect(a.made).toBe(true);
    await s!.close();
    s = undefined;
    const b = await touch({ answer: "allow", user: { permissions: { deny: ["Bash(touch:*)"] } }, managed: { allowManagedPermissionRulesOnly: true, permissions: { allow: ["Bash(touch:*)"] } } });
    expect(b.made).toBe(false);
    expect(b.told).toMatch(/^Permission denied for Bash: /);
  });

  it("without it, the person's allow rule runs the command (the test can tell)", async () => {
    const r = await touch({ user: { permissions: { allow: ["Bash(touch:*)"] } } });
    expect(r.made).toBe(true);
  });
});

describe("availableModels", () => {
  const reply = { replies: [{ content: "hello" }] };
  const model = (): string => String((s!.sim.requests[0]?.json as { model?: string } | undefined)?.model);

  it("a person's settings model outside the list gives way to the policy's first model", async () => {
    s = await openSession({ script: reply, user: { model: "deepseek-reasoner" }, managed: { availableModels: ["deepseek-chat"] } });
    await s.turn("hi");
    expect(model()).toBe("deepseek-chat");
  });

  it("a request for another model (a /model switch, a tier, a plugin) is refused at the core", async () => {
    s = await openSession({ script: reply, managed: { availableModels: ["deepseek-chat"] } });
    await expect(s.app.chain.dispatch({ type: "model.request", sessionId: s.engine.sessionId, request: { model: "deepseek-reasoner", messages: [{ role: "user", content: "hi" }] }, signal: new AbortController().signal } as never)).rejects.toThrow(/managed policy allows only deepseek-chat \(availableModels in .*managed-settings\.json\); this request was for deepseek-reasoner/);
    expect(s.sim.requests).toHaveLength(0);
  });
});

describe("forceLoginMethod", () => {
  it("is named as not applying and leaves the policy working (it used to break it: deny-all)", async () => {
    const r = await touch({ managed: { forceLoginMethod: "console", permissions: { allow: ["Bash(touch:*)"] } } });
    expect(r.made).toBe(true);
    expect(s!.warnings.join("\n")).toMatch(/forceLoginMethod/);
    expect(s!.warnings.join("\n")).not.toMatch(/MANAGED POLICY IS BROKEN/);
  });
});

describe("settings env", () => {
  const echo = "echo \"region=$ACME_REGION token=$ACME_TOKEN\"";
  for (const where of ["user", "managed"] as const) {
    it(`${where === "user" ? "the person's" : "the managed policy's"} env reaches every command, in the sandbox too, the credential-named one as well (a setting names it)`, async () => {
      const env = { env: { ACME_REGION: "eu-1", ACME_TOKEN: "tok-from-settings" } };
      s = await openSession({ script: { replies: [{ tool_calls: [bashCall("call_1", echo)] }, { content: "done" }] }, answer: "allow", ...(where === "user" ? { user: env } : { managed: env }) });
      await s.turn("show the region");
      expect(toolResults(s.sim).get("call_1")).toContain("region=eu-1 token=tok-from-settings");
    });
  }
});
