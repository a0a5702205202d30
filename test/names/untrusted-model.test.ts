// An untrusted project cannot switch the session to a pricier model (issue 22): not by its
// settings' `model`/`tier`/`planner`, not by a custom command's `model:`, not by an agent file's
// `model:` (test/names/agent-names.test.ts). Judged by the model the API was asked for.
import { afterEach, describe, expect, it } from "vitest";
import { cliRig, type CliRig } from "../e2e/helpers.js";

let rig: CliRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const models = (r: CliRig): string[] => r.sim.requests.map((q) => (q.json as { model?: string } | undefined)?.model ?? "").filter(Boolean);

describe("the model in an untrusted project", () => {
  const CASES: Array<{ what: string; files: Record<string, string>; args: string[] }> = [
    { what: "settings model", files: { ".deepcode/settings.json": JSON.stringify({ model: "deepseek-v4-pro" }) }, args: ["-p", "hi"] },
    { what: "settings tier", files: { ".deepcode/settings.json": JSON.stringify({ tier: "reasoner" }) }, args: ["-p", "hi"] },
    { what: "command model:", files: { ".claude/commands/deep.md": "---\nmodel: deepseek-v4-pro\n---\nThink hard." }, args: ["-p", "/deep"] },
    { what: "command model: in .deepcode", files: { ".deepcode/commands/deep.md": "---\nmodel: deepseek-reasoner\n---\nThink hard." }, args: ["-p", "/deep"] },
  ];

  it("stays the person's whatever the project's files say (corpus), and moves once the project is trusted", async () => {
    let tried = 0;
    let stopped = 0;
    for (const c of CASES) {
      rig = await cliRig({ default: { content: "ok" } }, c.files);
      const r = await rig.run(c.args);
      expect(r.code, `${c.what}: ${r.stderr}`).toBe(0);
      const untrusted = models(rig);
      tried++;
      if (untrusted.every((m) => m === untrusted[0]) && !/pro|reasoner/.test(untrusted.join())) stopped++;
      expect({ what: c.what, models: untrusted.filter((m) => /pro|reasoner/.test(m)) }).toEqual({ what: c.what, models: [] });
      const trusted = await rig.run([...c.args, "--trust-project"]);
      expect(trusted.code).toBe(0);
      expect(models(rig).slice(untrusted.length).some((m) => /pro|reasoner/.test(m)), `${c.what} trusted`).toBe(true);
      await rig.close();
      rig = undefined;
    }
    expect(stopped).toBe(tried);
  });
});
