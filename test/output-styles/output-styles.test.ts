// Claude Code's output styles: a project's `.claude/output-styles/*.md` named by settings
// `outputStyle` reaches the system prompt (its frontmatter's name, description and
// keep-coding-instructions as Claude Code documents them); `/output-style` lists the styles and
// picks one for the next session, saying the current session keeps its own (the cache).
import { afterEach, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startHarness, type Harness } from "../helpers/harness.js";
import { chatBodies } from "../helpers/extension.js";
import type { JsonValue } from "../../src/contract/index.js";
import outputStyles from "../../mods/output-styles/index.js";

let h: Harness | undefined;
let root: string | undefined;
afterEach(async () => {
  await h?.engine.close("exit");
  await h?.close();
  if (root) rmSync(root, { recursive: true, force: true });
  h = undefined;
  root = undefined;
});

const TEACHER = ["---", "name: Teacher", "description: Explains like a patient teacher", "---", "", "Explain every step as if to a student, with one question at the end."].join("\n");
const DIAGRAMS = ["---", "name: Diagrams", "description: Answers with a diagram", "keep-coding-instructions: true", "---", "Always include an ASCII diagram."].join("\n");

async function open(settings: Record<string, JsonValue>): Promise<Harness> {
  root = mkdtempSync(join(tmpdir(), "deepcode-styles-"));
  mkdirSync(join(root, ".claude", "output-styles"), { recursive: true });
  writeFileSync(join(root, ".claude", "output-styles", "teacher.md"), TEACHER);
  writeFileSync(join(root, ".claude", "output-styles", "diagrams.md"), DIAGRAMS);
  h = await startHarness({ root, script: { default: { content: "ok" } }, mods: [outputStyles], settings: { project: settings } });
  return h;
}

const systemOf = (x: Harness): string => String((chatBodies(x.sim.requests)[0].messages[0] as { content: string }).content);

async function command(x: Harness, name: string, args: string): Promise<string> {
  const out: string[] = [];
  const c = x.commands.get(name);
  if (!c) throw new Error(`no /${name}`);
  await c.spec.run({ args, sessionId: x.engine.sessionId, signal: new AbortController().signal, interactive: true, print: (t) => out.push(t), submit: async () => undefined });
  return out.join("\n");
}

describe("output styles", () => {
  it("puts the style settings name in the system prompt, without deepcode's coding instructions unless the style keeps them", async () => {
    const x = await open({ outputStyle: "teacher" });
    await x.turn("hello");
    const system = systemOf(x);
    expect(system).toContain("Explain every step as if to a student");
    expect(system).not.toContain("Check what you changed with the tests");
  });

  it("keeps deepcode's coding instructions for a style with keep-coding-instructions: true", async () => {
    const x = await open({ outputStyle: "Diagrams" });
    await x.turn("hello");
    expect(systemOf(x)).toContain("Always include an ASCII diagram.");
    expect(systemOf(x)).toContain("Check what you changed with the tests");
  });

  it("lists the styles with the current one marked, and a pick is saved for the next session while this one keeps its prompt", async () => {
    const x = await open({});
    await x.turn("hello");
    const list = await command(x, "output-style", "");
    expect(list).toMatch(/● Default/);
    expect(list).toMatch(/○ Teacher — Explains like a patient teacher {2}\(\.claude\/output-styles\/teacher\.md\)/);
    expect(list).toMatch(/○ Explanatory/);
    const picked = await command(x, "output-style", "teacher");
    expect(picked).toMatch(/Output style "Teacher" saved as outputStyle in .*settings\.local\.json\. This session keeps "Default".*It takes effect in a new session: \/new\./);
    expect(JSON.parse(readFileSync(join(root!, ".deepcode", "settings.local.json"), "utf8"))).toEqual({ outputStyle: "Teacher" });
    await x.turn("again");
    const bodies = chatBodies(x.sim.requests);
    expect(String((bodies[1].messages[0] as { content: string }).content)).not.toContain("Explain every step");
  });

  it("says once that an outputStyle names no style, and the session uses Default", async () => {
    const x = await open({ outputStyle: "Nonexistent" });
    const events = await x.turn("hello");
    const said = events.filter((e) => e.type === "notice").map((e) => (e as { message: string }).message).join("\n");
    expect(said).toMatch(/outputStyle "Nonexistent" is not an output style here \(Default, Explanatory, Learning, .*\); the session uses Default/);
    expect(systemOf(x)).toContain("Check what you changed with the tests");
  });
});
