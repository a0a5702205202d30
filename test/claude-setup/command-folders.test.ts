// Custom commands in sub-folders as ccusage-style setups keep them
// (`.claude/commands/ccusage/ccusage-daily.md`): Claude Code runs that as `/ccusage-daily`, and so
// does deepcode, beside its own `/ccusage:ccusage-daily`. Two files with one own name: the first
// (the person's before a project's, then path order) keeps it and the other is named. And a
// `/name` in `-p` that nothing answers to stops with a clear error instead of reaching the model.
import { afterEach, describe, expect, it } from "vitest";
import type { Simulator } from "../sim/server.mjs";
import { cliRig, type CliRig } from "../e2e/helpers.js";

let rig: CliRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const DAILY = "---\ndescription: Daily token usage\nargument-hint: [since] [until]\n---\nReport DAILY usage from $1 to $2.\n";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- chat requests as sent
const prompts = (s: Simulator): string[] => s.requests.filter((r) => r.path.endsWith("/chat/completions")).map((r: any) => String(r.json.messages.filter((m: any) => m.role === "user").at(-1)?.content ?? ""));

async function open(files: Record<string, string>): Promise<{ sim: Simulator; env: CliRig["env"] }> {
  rig = await cliRig({ default: { content: "ok" } }, files);
  return rig;
}

/** The real CLI in the opened project. */
const deepcode = (_env: CliRig["env"], args: string[]) => rig!.run(args);

describe("a custom command in a sub-folder", () => {
  it("runs by Claude Code's name, /ccusage-daily, with its arguments, and by deepcode's /ccusage:ccusage-daily", async () => {
    const o = await open({ ".claude/commands/ccusage/ccusage-daily.md": DAILY });
    const a = await deepcode(o.env, ["-p", "/ccusage-daily 2026-12-01 2026-12-07"]);
    expect(a.stderr).toBe("");
    expect(a.code).toBe(0);
    const b = await deepcode(o.env, ["-p", "/ccusage:ccusage-daily 2026-12-02 2026-12-03"]);
    expect(b.code).toBe(0);
    expect(prompts(o.sim)).toEqual([expect.stringContaining("Report DAILY usage from 2026-12-01 to 2026-12-07."), expect.stringContaining("Report DAILY usage from 2026-12-02 to 2026-12-03.")]);
  });

  it("gives a shared own name to the first file, and names the other file and the name it keeps", async () => {
    const o = await open({
      ".claude/commands/ccusage/daily.md": "---\ndescription: Daily usage\n---\nUSAGE-DAILY\n",
      ".claude/commands/reports/daily.md": "---\ndescription: Daily report\n---\nREPORT-DAILY\n",
    });
    const r = await deepcode(o.env, ["-p", "/daily"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/reports\/daily\.md: \/daily is also .*ccusage\/daily\.md, which keeps that name; this file is \/reports:daily/);
    await deepcode(o.env, ["-p", "/reports:daily"]);
    expect(prompts(o.sim).map((p) => /USAGE-DAILY|REPORT-DAILY/.exec(p)?.[0])).toEqual(["USAGE-DAILY", "REPORT-DAILY"]);
  });
});

describe("a /name in -p that no command has", () => {
  it("stops with an error naming it, and sends nothing to the model", async () => {
    const o = await open({});
    const r = await deepcode(o.env, ["-p", "/ccusage-weekly"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("unknown command /ccusage-weekly: no custom command, skill or plugin command has that name");
    expect(prompts(o.sim)).toEqual([]);
  });

  it("still sends a prompt that starts with a path to the model", async () => {
    const o = await open({});
    expect((await deepcode(o.env, ["-p", "/usr/bin/env fails here, why?"])).code).toBe(0);
    expect(prompts(o.sim)).toEqual([expect.stringContaining("/usr/bin/env fails here")]);
  });
});
