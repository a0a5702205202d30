// The shape of Anthropic's skills marketplace: a plugin entry with `"source": "./"`,
// `"strict": false` and `"skills": ["./skills/pdf"]` naming ONE skill folder loads that skill
// (and only the skills it names, not every folder beside it); `-p` runs a skill's slash
// command as the REPL does, by its full name or without its plugin.
import { afterEach, describe, expect, it } from "vitest";
import { bodies, filesRig, systemOf, userMessages, type FilesRig } from "./helpers.js";

let rig: FilesRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe("a marketplace entry naming one skill folder", () => {
  it("loads that skill, and only the skills it names", async () => {
    rig = await filesRig(["document-skills"]);
    const r = await rig.run(["-p", "hello"]);
    expect(r.code).toBe(0);
    const system = systemOf(bodies(rig.sim)[0]);
    expect(system).toMatch(/^- document-skills:pdf: Extract text and tables from PDF files/m);
    expect(system).not.toContain("xlsx");
    const list = await rig.run(["plugin", "list"]);
    expect(list.stdout).toMatch(/document-skills@cc-files[\s\S]*skills pdf(;|\n|$)/);
  });
});

describe("-p with a skill's slash command", () => {
  for (const typed of ["/document-skills:pdf extract the tables", "/pdf extract the tables"]) {
    it(`runs ${typed.split(" ")[0]} with its arguments, as the REPL does`, async () => {
      rig = await filesRig(["document-skills"], { default: { content: "tables extracted" } });
      const r = await rig.run(["-p", typed]);
      expect(r.code).toBe(0);
      expect(r.stdout.trim()).toBe("tables extracted");
      const prompt = userMessages(bodies(rig.sim)[0]).at(-1)!;
      expect(prompt).toContain('The user asked for the skill "document-skills:pdf" with: extract the tables');
      expect(prompt).toContain("PDF-SKILL-BODY: run scripts/extract.py FILE to extract the tables.");
      expect(prompt).not.toContain("/pdf extract");
    });
  }
});

describe("-p with a command that changes the setup", () => {
  it("does not run /plugin: it says the command is the REPL's, and sends nothing to the model", async () => {
    rig = await filesRig(["document-skills"], { default: { content: "ok" } });
    const r = await rig.run(["-p", "/plugin uninstall document-skills@cc-files"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("/plugin runs in the REPL only");
    expect(bodies(rig.sim)).toEqual([]);
    expect((await rig.run(["plugin", "list"])).stdout).toContain("document-skills@cc-files");
  });
});
