// UserPromptSubmit, SessionStart and SessionEnd hooks: a prompt can be blocked before the model
// sees it, or given context; a session's start can add context to its first prompt; its end is
// observed.
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { completion, hooksFor, lastRequestText, openSession, type Session } from "./helpers.js";

let s: Session | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

const json = (v: unknown): string => `echo '${JSON.stringify(v)}'`;

describe("a UserPromptSubmit hook", () => {
  it("blocks the prompt with exit 2: the model is never asked, and the turn says why", async () => {
    s = await openSession({ script: { default: { content: "answered" } }, project: { hooks: hooksFor("UserPromptSubmit", "echo 'no prompts about secrets' >&2; exit 2") } });
    const end = completion(await s.turn("tell me the password"));
    expect(end.stopReason).toBe("error");
    expect(end.error).toBe("prompt blocked: no prompts about secrets");
    expect(s.sim.requests).toHaveLength(0);
  });

  it("blocks the prompt with decision block and its reason", async () => {
    s = await openSession({ script: { default: { content: "answered" } }, project: { hooks: hooksFor("UserPromptSubmit", json({ decision: "block", reason: "outside office hours" })) } });
    const end = completion(await s.turn("hello"));
    expect(end.error).toBe("prompt blocked: outside office hours");
  });

  it("adds plain stdout and additionalContext as context the model reads before the prompt", async () => {
    s = await openSession({
      script: { default: { content: "answered" } },
      project: {
        hooks: {
          UserPromptSubmit: [
            { hooks: [{ type: "command", command: "echo 'branch: main'" }] },
            { hooks: [{ type: "command", command: json({ hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "ticket ABC-1 is open" } }) }] },
          ],
        },
      },
    });
    expect(completion(await s.turn("what next?")).stopReason).toBe("completed");
    const text = lastRequestText(s.sim);
    expect(text).toContain("branch: main");
    expect(text).toContain("ticket ABC-1 is open");
    expect(text.indexOf("ticket ABC-1")).toBeLessThan(text.lastIndexOf("what next?"));
  });

  it("gets the prompt on stdin", async () => {
    s = await openSession({ script: { default: { content: "ok" } }, project: { hooks: hooksFor("UserPromptSubmit", "cat > ./prompt.json") } });
    await s.turn("refactor the parser");
    const input = JSON.parse(readFileSync(join(s.box.root, "prompt.json"), "utf8")) as Record<string, unknown>;
    expect(input).toMatchObject({ hook_event_name: "UserPromptSubmit", prompt: "refactor the parser", session_id: s.engine.sessionId, cwd: s.box.root });
  });

  it("lets the turn go on when it fails, and the person is told", async () => {
    s = await openSession({ script: { default: { content: "answered" } }, project: { hooks: hooksFor("UserPromptSubmit", "exit 1") } });
    expect(completion(await s.turn("hi")).stopReason).toBe("completed");
    expect(s.warnings.join("\n")).toMatch(/UserPromptSubmit hook `exit 1` exited with status 1/);
  });
});

describe("SessionStart and SessionEnd hooks", () => {
  it("adds what a SessionStart hook prints to the session's first prompt, once", async () => {
    s = await openSession({ script: { default: { content: "ok" } }, project: { hooks: hooksFor("SessionStart", "echo 'you are on the release branch'", "startup") } });
    await s.turn("first");
    expect(lastRequestText(s.sim)).toContain("you are on the release branch");
    await s.turn("second");
    const last = s.sim.requests[s.sim.requests.length - 1].json.messages as Array<{ content: string }>;
    expect(last.filter((m) => typeof m.content === "string" && m.content.includes("release branch"))).toHaveLength(1);
  });

  it("runs SessionEnd hooks when the session closes, with the reason", async () => {
    s = await openSession({ script: { default: { content: "ok" } }, project: { hooks: hooksFor("SessionEnd", "cat > ./end.json") } });
    const file = join(s.box.root, "end.json");
    await s.turn("hi");
    expect(existsSync(file)).toBe(false);
    await s.engine.close("exit");
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ hook_event_name: "SessionEnd", reason: "exit", session_id: s.engine.sessionId });
  });
});
