// Where hooks come from: every settings layer's hooks run (they accumulate); the managed
// policy's run in the prepend tier and can be made the only ones (allowManagedHooksOnly); a hook
// entry deepcode cannot run is said at start — and on PreToolUse, denies what it would have seen.
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bashCall, toolResults } from "../permissions-e2e/helpers.js";
import { hooksFor, logged as loggedIn, logging, openSession, touchIn, type Session, type SessionOptions } from "./helpers.js";

let s: Session | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

const logged = (): string[] => loggedIn(s!.box.root);

async function touch(o: Partial<SessionOptions>): Promise<{ made: boolean; told: string }> {
  const r = await touchIn({ answer: "allow", ...o });
  s = r.session;
  return r;
}

describe("hooks from several settings layers", () => {
  it("runs the hooks of the user, project and managed layers alike", async () => {
    await touch({ user: { hooks: logging("user") }, project: { hooks: logging("project") }, managed: { hooks: logging("managed") } });
    expect(logged()).toEqual(["managed", "project", "user"]);
  });

  it("runs the managed policy's hooks in the prepend tier and the others in the user tier", async () => {
    await touch({ project: { hooks: logging("project") }, managed: { hooks: logging("managed") } });
    const tiers = s!.app.chain.hooksFor("tool.check").filter((h) => h.owner === "hooks").map((h) => h.tier);
    expect(tiers).toEqual(["prepend", "user"]);
  });

  it("runs only the managed policy's hooks when it sets allowManagedHooksOnly, and says the others are ignored", async () => {
    await touch({ project: { hooks: logging("project") }, managed: { allowManagedHooksOnly: true, hooks: logging("managed") } });
    expect(logged()).toEqual(["managed"]);
    expect(s!.warnings.join("\n")).toMatch(/settings\.json: hooks ignored — the managed policy allows only its own hooks/);
  });

  it("ignores allowManagedHooksOnly anywhere but the managed policy", async () => {
    await touch({ user: { hooks: logging("user") }, project: { allowManagedHooksOnly: true, hooks: logging("project") } });
    expect(logged()).toEqual(["project", "user"]);
  });

  it("denies when any layer's hook denies, though another layer's hook allows", async () => {
    const allow = hooksFor("PreToolUse", `echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'`, "Bash");
    const deny = hooksFor("PreToolUse", "echo 'project says no' >&2; exit 2", "Bash");
    const a = await touch({ managed: { hooks: allow }, project: { hooks: deny } });
    expect(a.made).toBe(false);
    expect(a.told).toBe("Permission denied for Bash: project says no");
    await s!.close();
    s = undefined;
    const b = await touch({ managed: { hooks: hooksFor("PreToolUse", "echo 'policy says no' >&2; exit 2", "Bash") }, project: { hooks: allow } });
    expect(b.made).toBe(false);
    expect(b.told).toBe("Permission denied for Bash: policy says no");
  });
});

describe("hook entries deepcode cannot run", () => {
  it("says at start that events it does not run are ignored", async () => {
    await touch({ project: { hooks: { SubagentStart: [{ hooks: [{ type: "command", command: "true" }] }] } } });
    expect(s!.warnings.join("\n")).toMatch(/'SubagentStart' hooks are not run by deepcode/);
  });

  it("denies the calls a PreToolUse entry of another hook type would have seen, and only those", async () => {
    s = await openSession({
      script: { replies: [{ tool_calls: [bashCall("call_bash", "touch made.txt"), { id: "call_read", name: "Read", arguments: { file_path: "x.txt" } }] }, { content: "done" }] },
      project: { hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "prompt", prompt: "is this safe?" }] }] } },
      answer: "allow",
      prepare: (box) => writeFileSync(join(box.root, "x.txt"), "hi\n"),
    });
    await s.turn("go");
    const told = toolResults(s.sim);
    expect(told.get("call_bash")).toMatch(/^Permission denied for Bash: a PreToolUse hook cannot run as configured .*deepcode runs only "command" hooks/);
    expect(told.get("call_read")).not.toMatch(/Permission denied/);
    expect(existsSync(join(s.box.root, "made.txt"))).toBe(false);
    expect(s.warnings.join("\n")).toMatch(/hooks\.PreToolUse\[0\]: hooks\[0\] has type "prompt".*denied until it is fixed/);
  });

  it("denies every call when a PreToolUse matcher is not a valid regular expression", async () => {
    const r = await touch({ project: { hooks: hooksFor("PreToolUse", "true", "Bash(") } });
    expect(r.made).toBe(false);
    expect(r.told).toMatch(/matcher "Bash\(" is not a valid regular expression/);
  });
});
