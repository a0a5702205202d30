// What a background hook says after its event went on reaches the model with the next prompt
// (in-process: two turns of one session, the person idle in between, as in the REPL).
import { afterEach, describe, expect, it } from "vitest";
import { completion, lastRequestText, openSession, type Session } from "../hooks/helpers.js";

let s: Session | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

/** Wait until `ok` holds (the background hook has ended), at most 120 s (a limit for a hook that never ends, not a speed). */
async function until(ok: () => boolean): Promise<void> {
  for (const end = Date.now() + 120_000; !ok() && Date.now() < end; ) await new Promise((res) => setTimeout(res, 100));
}

describe("a background hook", () => {
  it("with async: its additionalContext and systemMessage come with the next prompt, not the one it ran for", async () => {
    const say = `sleep 0.2; echo '{"systemMessage":"indexed 120 files","hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"the index is at .cache/index"}}'`;
    s = await openSession({ script: { replies: [{ content: "one" }, { content: "two" }] }, project: { hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: say, async: true }] }] } } });
    expect(completion(await s.turn("first")).text).toBe("one");
    expect(lastRequestText(s.sim)).not.toContain("the index is at .cache/index");
    await until(() => s!.warnings.join("\n").includes("indexed 120 files"));
    expect(s.warnings.join("\n")).toContain("indexed 120 files"); // shown to the person
    expect(completion(await s.turn("second")).text).toBe("two");
    expect(lastRequestText(s.sim)).toContain("the index is at .cache/index");
    expect(lastRequestText(s.sim)).toContain("indexed 120 files");
  });

  it("with asyncRewake that exits 2 after the turn, where no REPL can be woken: the person is told, and the model hears it with the next prompt", async () => {
    const check = `sleep 0.2; echo 'the build broke: missing semicolon in b.ts' >&2; exit 2`;
    s = await openSession({ script: { replies: [{ content: "one" }, { content: "two" }] }, project: { hooks: { Stop: [{ hooks: [{ type: "command", command: check, asyncRewake: true }] }] } } });
    expect(completion(await s.turn("first")).text).toBe("one");
    await until(() => s!.warnings.join("\n").includes("asyncRewake"));
    expect(s.warnings.join("\n")).toMatch(/asyncRewake\) reports: the build broke: missing semicolon in b\.ts — the model reads it with your next prompt/);
    expect(s.sim.requests).toHaveLength(1);
    await s.turn("second");
    expect(lastRequestText(s.sim)).toContain("the build broke: missing semicolon in b.ts");
  });

  it("that fails is reported to the person, and changes nothing else", async () => {
    s = await openSession({ script: { replies: [{ content: "one" }] }, project: { hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: "echo broken >&2; exit 3", async: true }] }] } } });
    expect(completion(await s.turn("first")).text).toBe("one");
    await until(() => s!.warnings.join("\n").includes("exit 3"));
    expect(s.warnings.join("\n")).toMatch(/UserPromptSubmit \(background\) hook `echo broken >&2; exit 3` exited with status 3: broken/);
  });
});
