// Telemetry through the real CLI: off by default (no file at all); on only by the person's own
// settings (a project's try is ignored, with a warning, trusted or not; the managed policy can
// force it off); when on, every line conforms to the closed schema, and none of the prompts,
// paths, commands, secrets or model words the session was fed reaches the file.
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliRig, type CliRig } from "../e2e/helpers.js";
import { checkTelemetryLine } from "../../src/contract/index.js";
import { deepcode } from "../plugins/helpers.js";

let rig: CliRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const call = (name: string, args: object) => ({ tool_calls: [{ name, arguments: args }] });
const SECRET = "sk-live-7f3a9c2e5b1d4f6a8c0e2b4d6f8a0c1e";
const file = (r: CliRig): string => join(r.env.home, "telemetry.jsonl");
const lines = (r: CliRig): Array<Record<string, unknown>> => readFileSync(file(r), "utf8").trim().split("\n").map((l) => JSON.parse(l));
const on = (r: CliRig, extra: object = {}): void => writeFileSync(join(r.env.home, "settings.json"), JSON.stringify({ telemetry: true, ...extra }));

/** A session that touches everything a careless telemetry would leak. */
const leaky = {
  replies: [
    { content: `Thinking about ${SECRET} and /home/alice/private/plan.txt`, ...call("Read", { file_path: "/home/alice/private/plan.txt" }) },
    call("Bash", { command: `curl -H "Authorization: Bearer ${SECRET}" https://internal.example/deploy` }),
    call(`exfiltrate_${SECRET.slice(0, 12)}`, { data: SECRET }),
    { content: `done; the key was ${SECRET}` },
  ],
};
const prompt = `deploy with key ${SECRET} from /srv/acme/prod.env`;

describe("telemetry", () => {
  it("is off by default: a whole session leaves no telemetry file", async () => {
    rig = await cliRig(leaky);
    const r = await rig.run(["-p", prompt, "--allowedTools", "Bash(curl:*)"]);
    expect(r.code).toBe(0);
    expect(existsSync(file(rig))).toBe(false);
  });

  it("writes only schema lines, and none of the session's prompts, paths, commands or secrets", async () => {
    rig = await cliRig(leaky);
    on(rig);
    const r = await rig.run(["-p", prompt, "--allowedTools", "Bash(curl:*)"], { env: { DEEPSEEK_API_KEY: "sk-test-cli" } });
    expect(r.code).toBe(0);
    const raw = readFileSync(file(rig), "utf8");
    for (const needle of [SECRET, SECRET.slice(3, 20), "alice", "plan.txt", "/srv/acme", "prod.env", "curl", "internal.example", "deploy", "exfiltrate", "sk-test-cli", "Thinking", rig.env.root]) {
      expect(raw).not.toContain(needle);
    }
    const all = lines(rig);
    for (const l of all) expect(checkTelemetryLine(l, { tools: new Set(["Read", "Bash"]), models: new Set(["deepseek-flash"]) })).toBeNull();
    expect(all.map((l) => l.event)).toEqual(["session_start", "tool_call", "tool_call", "turn_complete", "session_end"]);
    expect(all[1]).toMatchObject({ tool: "Read", outcome: expect.stringMatching(/^(ok|error|denied)$/) });
    expect(all[2]).toMatchObject({ tool: "Bash" });
    expect(all[3]).toMatchObject({ stop: "completed", turn: 1, steps: 4 });
    expect(typeof all[3].cost_usd).toBe("number");
    expect(r.stderr).toContain("a telemetry line did not conform to its schema (tool_call: tool is not a registered tool) and was dropped");
    expect(statSync(file(rig)).mode & 0o777).toBe(0o600);
  });

  it("records an API error by its code", async () => {
    rig = await cliRig({ replies: [{ fault: { status: 401 } }] });
    on(rig);
    await rig.run(["-p", "hi"]);
    expect(lines(rig).filter((l) => l.event === "error")).toEqual([expect.objectContaining({ code: "auth" })]);
  });

  it("ignores a project's telemetry setting, trusted or not, and says so", async () => {
    rig = await cliRig({ default: { content: "ok" } }, { ".deepcode/settings.json": JSON.stringify({ telemetry: true }) });
    const r = await rig.run(["-p", "hi", "--trust-project"]);
    expect(r.stderr).toContain(`${join(rig.env.root, ".deepcode", "settings.json")}: telemetry is turned on only in your own settings (~/.deepcode/settings.json); ignored here`);
    expect(existsSync(file(rig))).toBe(false);
  });

  it("stays off when the managed policy turns it off, whatever the person's settings say", async () => {
    rig = await cliRig({ default: { content: "ok" } });
    on(rig);
    const managed = join(rig.env.home, "policy", "managed-settings.json");
    mkdirSync(join(rig.env.home, "policy"), { recursive: true });
    writeFileSync(managed, JSON.stringify({ telemetry: false }));
    const r = await deepcode(rig.env, ["-p", "hi"], { managed });
    expect(r.code).toBe(0);
    expect(existsSync(file(rig))).toBe(false);
  });

  it("is read back by deepcode stats --telemetry", async () => {
    rig = await cliRig({ replies: [call("Bash", { command: "echo a" }), { content: "one" }, { content: "two" }] });
    on(rig);
    await rig.run(["-p", "first", "--allowedTools", "Bash(echo:*)"]);
    await rig.run(["-p", "-c", "second"]);
    writeFileSync(file(rig), `${readFileSync(file(rig), "utf8")}{"v":1,"event":"error","code":"auth","note":"smuggled"}\n`);
    const r = await rig.run(["stats", "--telemetry"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/sessions +2/);
    expect(r.stdout).toMatch(/turns +2 \(completed 2\)/);
    expect(r.stdout).toMatch(/Bash +ok 1/);
    expect(r.stdout).toContain("1 lines skipped: they did not conform");
    expect(r.stdout).not.toContain("smuggled");
  });
});
