// `deepcode telemetry` is the telemetry mod's subcommand: it reads what the file recorded, also
// once telemetry is off again, as text or JSON; `deepcode stats --telemetry` runs it.
import { afterEach, describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliRig, type CliRig } from "../e2e/helpers.js";

let rig: CliRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const file = (r: CliRig): string => join(r.env.home, "telemetry.jsonl");

describe("deepcode telemetry", () => {
  it("summarises the file as text and as JSON, after telemetry was turned off again, and stats --telemetry says the same", async () => {
    rig = await cliRig({ replies: [{ content: "one" }] });
    writeFileSync(join(rig.env.home, "settings.json"), JSON.stringify({ telemetry: true }));
    expect((await rig.run(["-p", "first"])).code).toBe(0);
    writeFileSync(join(rig.env.home, "settings.json"), JSON.stringify({ telemetry: false }));
    const recorded = readFileSync(file(rig), "utf8");
    const text = await rig.run(["telemetry"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`${file(rig)}: `);
    expect(text.stdout).toMatch(/sessions +1/);
    expect(text.stdout).toMatch(/turns +1 \(completed 1\)/);
    const json = await rig.run(["telemetry", "--json"]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ sessions: 1, turns: 1, skipped: 0, stops: { completed: 1 } });
    expect((await rig.run(["stats", "--telemetry", "--json"])).stdout).toBe(json.stdout);
    expect((await rig.run(["stats", "--telemetry"])).stdout).toBe(text.stdout);
    // Reading wrote nothing.
    expect(readFileSync(file(rig), "utf8")).toBe(recorded);
  });

  it("says there is nothing when the file is absent, answers --help, and refuses an option it does not take (exit 2)", async () => {
    rig = await cliRig({ replies: [{ content: "x" }] });
    const none = await rig.run(["telemetry"]);
    expect(none.code).toBe(0);
    expect(none.stdout).toContain(`No telemetry in ${file(rig)}`);
    const help = await rig.run(["telemetry", "--help"]);
    expect(help.stdout).toMatch(/^Usage: deepcode telemetry/);
    expect(help.stdout).toContain("--json");
    const bad = await rig.run(["telemetry", "--jsn"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("deepcode telemetry: ");
  });
});
