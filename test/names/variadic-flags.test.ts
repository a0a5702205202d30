// Claude Code's variadic options (`--allowedTools <tools...>`, `--disallowedTools <tools...>`,
// `--mcp-config <configs...>`): every form Claude Code accepts parses to the same values, and a
// word after the list is a value, never prompt text (issue 22: `--disallowedTools "A" "B"` kept
// only A, B became the prompt and the denied command ran).
import { afterEach, describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { GLOBAL_OPTIONS, parseOptions, splitRules } from "../../src/cli/options.js";
import { call, cliRig, type CliRig } from "../e2e/helpers.js";

const VARIADIC = GLOBAL_OPTIONS.filter((o) => o.variadic);

/** Each form of giving two values A and B, as Claude Code's CLI reads them. */
function forms(flag: string, a: string, b: string): Array<{ form: string; args: string[]; positionals: string[] }> {
  return [
    { form: "space list after the flag", args: [`--${flag}`, a, b], positionals: [] },
    { form: "space list, then another option", args: [`--${flag}`, a, b, "--verbose"], positionals: [] },
    { form: "repeated flag", args: [`--${flag}`, a, `--${flag}`, b], positionals: [] },
    { form: "= form, then a positional", args: [`--${flag}=${a}`, "prompt"], positionals: ["prompt"] },
    { form: "list ended by --", args: [`--${flag}`, a, b, "--", "prompt"], positionals: ["prompt"] },
    { form: "prompt first", args: ["prompt", `--${flag}`, a, b], positionals: ["prompt"] },
  ];
}

describe("Claude Code's variadic options", () => {
  it("are exactly the rule and MCP config options, each in the table as variadic", () => {
    expect(VARIADIC.map((o) => o.name).sort()).toEqual(["allowedTools", "disallowedTools", "mcp-config"]);
  });

  for (const spec of VARIADIC) {
    for (const flag of [spec.name, ...(spec.aliases ?? [])]) {
      it(`--${flag} takes every word up to the next option, in each of Claude Code's forms`, () => {
        let tried = 0;
        for (const f of forms(flag, "Read", "Bash(touch:*)")) {
          const p = parseOptions(f.args, GLOBAL_OPTIONS, { positionals: true });
          const want = f.form.startsWith("=") ? ["Read"] : ["Read", "Bash(touch:*)"];
          expect({ form: f.form, values: p.values[spec.name], positionals: p.positionals }).toEqual({ form: f.form, values: want, positionals: f.positionals });
          tried++;
        }
        expect(tried).toBe(6);
      });
    }
  }

  it("splits the comma and space forms of a rule list alike, keeping a pattern's spaces and commas", () => {
    const comma = parseOptions(["--disallowedTools", "Read,Bash(git push:*),Edit(a,b)"], GLOBAL_OPTIONS, { positionals: true });
    const spaced = parseOptions(["--disallowedTools", "Read", "Bash(git push:*)", "Edit(a,b)"], GLOBAL_OPTIONS, { positionals: true });
    const quoted = parseOptions(["--disallowedTools", "Read Bash(git push:*) Edit(a,b)"], GLOBAL_OPTIONS, { positionals: true });
    for (const p of [comma, spaced, quoted]) expect(splitRules(p.values.disallowedTools as string[])).toEqual(["Read", "Bash(git push:*)", "Edit(a,b)"]);
  });

  it("reads every string option alike in its space and = forms, and its short form (corpus)", () => {
    let tried = 0;
    for (const spec of GLOBAL_OPTIONS.filter((o) => o.type === "string")) {
      const value = spec.name === "settings" ? "s.json" : "v1";
      const want = spec.multiple ? [value] : value;
      const spellings = [spec.name, ...(spec.aliases ?? [])];
      for (const n of spellings) {
        for (const args of [[`--${n}`, value, "--verbose"], [`--${n}=${value}`, "--verbose"], ...(spec.short ? [[`-${spec.short}`, value, "--verbose"], [`-${spec.short}${value}`, "--verbose"]] : [])]) {
          const p = parseOptions(args, GLOBAL_OPTIONS, { positionals: true });
          expect({ args, value: p.values[spec.name], verbose: p.values.verbose }).toEqual({ args, value: want, verbose: true });
          tried++;
        }
      }
    }
    expect(tried).toBeGreaterThanOrEqual(30);
  });

  it("never reads another option's value as a list word or an option", () => {
    const p = parseOptions(["-m", "deepseek-chat", "--allowedTools", "Read", "--settings", "s.json", "hi"], GLOBAL_OPTIONS, { positionals: true });
    expect(p.values.allowedTools).toEqual(["Read"]);
    expect(p.values.settings).toBe("s.json");
    expect(p.positionals).toEqual(["hi"]);
  });
});

describe("the variadic form with the real CLI", () => {
  let rig: CliRig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  it('denies the second rule of --disallowedTools "Read" "Bash(touch:*)" and keeps it out of the prompt', async () => {
    rig = await cliRig({ replies: [call("Bash", { command: "touch PWNED" }), { content: "done" }] });
    const r = await rig.run(["-p", "make a file", "--allowedTools", "Bash", "--disallowedTools", "Read", "Bash(touch:*)"]);
    expect(r.code).toBe(0);
    expect(existsSync(join(rig.env.root, "PWNED"))).toBe(false);
    const first = rig.sim.requests[0].json as { messages: Array<{ role: string; content: string }> };
    const user = first.messages.filter((m) => m.role === "user").map((m) => m.content).join("\n");
    expect(user).toContain("make a file");
    expect(user).not.toContain("Bash(touch:*)");
  });

  it("says where the prompt went when the list took it and no prompt is left", async () => {
    rig = await cliRig({ default: { content: "ok" } });
    const r = await rig.run(["-p", "--allowedTools", "Read", "fix the bug"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--allowedTools took 'Read' 'fix the bug' as its values");
    expect(rig.sim.requests).toHaveLength(0);
  });
});
