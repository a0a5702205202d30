// A repository with both AGENTS.md and CLAUDE.md (centminmod's setup) sends both to the model;
// one that is the other (compound-engineering's `CLAUDE.md -> AGENTS.md`, or a CLAUDE.md that only
// imports `@AGENTS.md`) sends the text once. `.claude/rules/*.md` is read: a rule for every file
// whole, a rule with `paths:` named with its globs for the model to read when it works there.
import { afterEach, describe, expect, it } from "vitest";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { cliRig, type CliRig } from "../e2e/helpers.js";
import { chatBodies } from "../helpers/extension.js";

let rig: CliRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

async function systemPrompt(files: Record<string, string>, links: Record<string, string> = {}): Promise<{ system: string; stderr: string }> {
  rig = await cliRig({ default: { content: "ok" } }, files);
  for (const [at, target] of Object.entries(links)) symlinkSync(target, join(rig.env.root, at));
  const r = await rig.run(["-p", "hi", "--trust-project"]);
  expect(r.code).toBe(0);
  const first = chatBodies(rig.sim.requests)[0] as { messages: Array<{ role: string; content: string }> };
  return { system: String(first.messages[0].content), stderr: r.stderr };
}

const count = (s: string, needle: string): number => s.split(needle).length - 1;

describe("AGENTS.md and CLAUDE.md in one repository", () => {
  it("sends both, and the project's rules: a rule for every file whole, a path-scoped one by name", async () => {
    const { system } = await systemPrompt({
      "AGENTS.md": "# Agents\nAGENTS-MARKER: run npm test before you finish.\n",
      "CLAUDE.md": "# CLAUDE.md\n<!-- Project-specific context only -->\nCLAUDE-MARKER: the API lives in src/api.\n",
      ".claude/rules/core-rules.md": "# Core Rules\n\n<!-- Loaded automatically at session start for all files -->\n- CORE-RULE-MARKER: read a file before you speak of it\n",
      ".claude/rules/api/endpoints.md": '---\npaths:\n  - "src/api/**"\n  - "**/*.route.ts"\n---\nAPI-RULE-BODY: every endpoint validates its input.\n',
    });
    expect(count(system, "AGENTS-MARKER")).toBe(1);
    expect(count(system, "CLAUDE-MARKER")).toBe(1);
    expect(system).toContain("CORE-RULE-MARKER");
    expect(system).toContain(".claude/rules/api/endpoints.md: for files matching src/api/**, **/*.route.ts");
    expect(system).not.toContain("API-RULE-BODY");
  });

  it("sends AGENTS.md once when CLAUDE.md is a link to it", async () => {
    const { system } = await systemPrompt({ "AGENTS.md": "AGENTS-MARKER: use bun.\n" }, { "CLAUDE.md": "AGENTS.md" });
    expect(count(system, "AGENTS-MARKER")).toBe(1);
    expect(system).not.toContain("CLAUDE.md in the project root");
  });

  it("sends AGENTS.md once when CLAUDE.md imports it, and what CLAUDE.md adds beside the import", async () => {
    const { system } = await systemPrompt({ "AGENTS.md": "AGENTS-MARKER: use bun.\n", "CLAUDE.md": "@AGENTS.md\n\nCLAUDE-EXTRA: prefer small commits.\n" });
    expect(count(system, "AGENTS-MARKER")).toBe(1);
    expect(system).toContain("CLAUDE-EXTRA: prefer small commits.");
    expect(system).not.toContain("@AGENTS.md");
  });
});
