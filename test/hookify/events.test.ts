// hookify inside one session, assembled as the CLI does: a rule written or edited mid-session
// applies at the next call (no restart), a rule broken mid-session is reported once and asks;
// an `ask` rule asks the person; a stop rule that blocks makes the turn go on, once;
// `/hookify list` shows every rule and its state.
import { afterEach, describe, expect, it } from "vitest";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openSession, type Session } from "../hooks/helpers.js";
import type { Box } from "../permissions-e2e/helpers.js";
import { chatBodies } from "../helpers/extension.js";

let s: Session | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

const call = (name: string, args: object) => ({ tool_calls: [{ name, arguments: args }] });
const writeRule = (root: string, name: string, text: string): void => {
  mkdirSync(join(root, ".claude"), { recursive: true });
  writeFileSync(join(root, ".claude", `hookify.${name}.local.md`), text);
};
/** The person's settings: Bash(echo) allowed, and hookify reading only this project's folder
 *  (an in-process test must not read the developer's own ~/.claude rules). */
function settings(box: Box, extra: object = {}): void {
  mkdirSync(box.deepcodeHome, { recursive: true });
  writeFileSync(join(box.deepcodeHome, "settings.json"), JSON.stringify({ permissions: { allow: ["Bash(echo:*)"] }, pluginConfig: { hookify: { dirs: [join(box.root, ".claude")] } }, ...extra }));
}
const toolText = (sess: Session, i: number): string => String(chatBodies(sess.sim.requests).at(-1)!.messages.filter((m) => m.role === "tool")[i]?.content);

describe("hookify rules during a session", () => {
  it("applies a rule written mid-session at the next call, and reports a rule broken mid-session once, asking meanwhile", async () => {
    s = await openSession({ script: { replies: [call("Bash", { command: "echo one" }), { content: "a" }, call("Bash", { command: "echo two" }), { content: "b" }, call("Bash", { command: "echo three" }), { content: "c" }] }, prepare: (box) => settings(box) });
    await s.turn("first");
    expect(toolText(s, 0)).toContain("one");
    writeRule(s.box.root, "no-echo", "---\nname: no-echo\nevent: bash\npattern: echo\\s+two\naction: block\n---\nNot two.\n");
    await s.turn("second");
    expect(toolText(s, 1)).toContain("hookify rule no-echo blocks this call");
    writeRule(s.box.root, "no-echo", "---\nname: no-echo\nevent: bash\npattern: echo\\s+(two\naction: block\n---\nNot two.\n");
    await s.turn("third");
    expect(toolText(s, 2)).toContain("Permission denied for Bash: the person said no"); // it asked; the person (this test) said no
    expect(s.asked).toEqual(["Bash"]);
    expect(s.warnings.filter((w) => w.includes("rule no-echo is disabled"))).toHaveLength(1);
  });

  it("asks the person before a call an `ask` rule matches, even where a rule allows it", async () => {
    s = await openSession({ script: { replies: [call("Bash", { command: "echo deploy" }), { content: "ok" }] }, answer: "allow", prepare: (box) => {
      settings(box);
      writeRule(box.root, "deploy", "---\nname: confirm-deploy\nevent: bash\npattern: deploy\naction: ask\n---\nDeploys need a person.\n");
    } });
    await s.turn("go");
    expect(s.asked).toEqual(["Bash"]);
    expect(toolText(s, 0)).toContain("deploy");
  });

  it("makes the turn go on once with a stop rule's message when it blocks", async () => {
    s = await openSession({ script: { replies: [{ content: "all done" }, { content: "tests pass now" }, { content: "never reached" }] }, prepare: (box) => {
      settings(box);
      writeRule(box.root, "tests", "---\nname: require-tests\nevent: stop\npattern: all done\naction: block\n---\nRun the tests before you finish.\n");
    } });
    const events = await s.turn("fix it");
    const bodies = chatBodies(s.sim.requests);
    expect(bodies).toHaveLength(2);
    expect(String(bodies[1].messages.at(-1)?.content)).toContain("Run the tests before you finish.");
    expect(events.filter((e) => e.type === "turn.complete")).toHaveLength(1);
  });

  it("lists every rule and its state with /hookify list", async () => {
    s = await openSession({ script: { default: { content: "ok" } }, prepare: (box) => {
      settings(box);
      writeRule(box.root, "a", "---\nname: block-rm\nevent: bash\npattern: rm\\s+-rf\naction: block\n---\nNo.\n");
      writeRule(box.root, "b", "---\nname: off\nenabled: false\nevent: file\npattern: x\n---\nx\n");
      writeRule(box.root, "c", "---\nname: bad\nevent: bash\npattern: (\naction: block\n---\nx\n");
    } });
    const out: string[] = [];
    await s.app.commands.get("hookify")!.spec.run({ args: "list", sessionId: s.engine.sessionId, signal: new AbortController().signal, interactive: true, print: (t) => out.push(t), submit: async () => undefined });
    const text = out.join("\n");
    expect(text).toMatch(/✓ block-rm +bash +block enabled +\(\.claude\/hookify\.a\.local\.md:2\)/);
    expect(text).toMatch(/· off +file +warn +disabled/);
    expect(text).toMatch(/✗ bad +bash +block broken: the pattern "\(" is not a valid regular expression/);
    expect(text).toContain("3 rules, 1 in force");
  });
});
