// A cloned repository's hookify rules run on the person's prompts and tool calls: a pattern
// that repeats a repeating group (`(a+)+$`) can backtrack for minutes on 46 characters, so a
// rule from the project cannot use one (it is a broken rule, reported with its file and line,
// and a broken block rule makes the calls it guards ask); the person's own rules may, and
// every rule reads at most the first 256 KiB of what it matches.
import { afterEach, describe, expect, it } from "vitest";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readRule } from "../../mods/hookify/rules.js";
import { evaluate, MATCH_CHARS } from "../../mods/hookify/match.js";
import { nestedQuantifier } from "../../mods/hookify/regex.js";
import { openSession, type Session } from "../hooks/helpers.js";
import { chatBodies } from "../helpers/extension.js";

let s: Session | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

const slow = (event: string, action: string) => `---\nname: slow\nenabled: true\nevent: ${event}\npattern: (a+)+$\naction: ${action}\n---\nSlow.\n`;

describe("hookify patterns from an untrusted project", () => {
  it("refuses a nested repeat in a project's rule, with the line of the pattern, and keeps it in the person's own", () => {
    const r = readRule("/p/.claude/hookify.slow.local.md", slow("prompt", "warn"), { fromProject: true });
    expect(r).toMatchObject({ kind: "broken", line: 5, action: "warn", event: "prompt" });
    expect(r.kind === "broken" && r.problem).toContain('the pattern "(a+)+$" repeats a group that itself repeats');
    expect(readRule("/home/me/.claude/hookify.slow.local.md", slow("prompt", "warn")).kind).toBe("rule");
  });

  it("tells a nested repeat from the patterns rule authors write", () => {
    for (const p of ["(a+)+$", "(\\w*)*x", "(x{2,})+", "((ab)+c)*", "(?:[a-z]+\\s?)+$", "(a+){2,}"]) expect(nestedQuantifier(p), p).toBe(true);
    for (const p of ["rm\\s+-rf", "(rm|mv)\\s+", "console\\.log\\(", "(foo)+bar", "[(a+)]+", "\\(a+\\)+", "(?<name>\\d+)-x", "(ab)?c+"]) expect(nestedQuantifier(p), p).toBe(false);
  });

  it("reports a project's (a+)+$ prompt rule once, with its file and line, and sends the prompt on", async () => {
    s = await openSession({ script: { default: { content: "ok" } }, prepare: (box) => {
      mkdirSync(box.deepcodeHome, { recursive: true });
      writeFileSync(join(box.deepcodeHome, "settings.json"), JSON.stringify({ pluginConfig: { hookify: { dirs: [join(box.root, ".claude")] } } }));
      mkdirSync(join(box.root, ".claude"), { recursive: true });
      writeFileSync(join(box.root, ".claude", "hookify.slow.local.md"), slow("prompt", "warn"));
    } });
    await s.turn(`${"a".repeat(20)}!`); // 46 held a core for minutes before; 20 keeps a regression short
    expect(chatBodies(s.sim.requests)).toHaveLength(1);
    expect(s.warnings.filter((w) => w.includes("rule slow is disabled") && w.includes("hookify.slow.local.md:5"))).toHaveLength(1);
  });

  it("makes Bash calls ask while a project's block rule is refused for a nested repeat", async () => {
    s = await openSession({ script: { replies: [{ tool_calls: [{ name: "Bash", arguments: { command: "echo hi" } }] }, { content: "done" }] }, prepare: (box) => {
      mkdirSync(box.deepcodeHome, { recursive: true });
      writeFileSync(join(box.deepcodeHome, "settings.json"), JSON.stringify({ permissions: { allow: ["Bash(echo:*)"] }, pluginConfig: { hookify: { dirs: [join(box.root, ".claude")] } } }));
      mkdirSync(join(box.root, ".claude"), { recursive: true });
      writeFileSync(join(box.root, ".claude", "hookify.slow.local.md"), slow("bash", "block"));
    } });
    await s.turn("go");
    expect(s.asked).toEqual(["Bash"]);
  });

  it("matches a rule against at most the first 256 KiB of a field", () => {
    const r = readRule("/home/me/.claude/hookify.end.local.md", "---\nname: end\nevent: bash\npattern: SECRET$\naction: block\n---\nNo.\n");
    expect(evaluate([r], { kind: "tool", tool: "Bash", input: { command: `${"x".repeat(10)}SECRET` } })?.action).toBe("block");
    expect(evaluate([r], { kind: "tool", tool: "Bash", input: { command: `${"x".repeat(MATCH_CHARS)}SECRET` } })).toBeNull();
  });
});
