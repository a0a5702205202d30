// Secrets in real processes: what Read asks for reaches the model neither through an @-mention
// nor through Grep. The sandbox is off, so only the gate and the tools themselves stand in the
// way; HOME is the test's own folder.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Simulator } from "../sim/server.mjs";
import { CLI_HOOK_TIMEOUT_MS, makeBox, runCli, startSim, toolResults, writeJson, type Box } from "./helpers.js";

let box: Box;
let sim: Simulator | undefined;
beforeEach(() => {
  box = makeBox();
  writeFileSync(join(box.root, ".env"), "API_TOKEN=sk-live-e2e-123\n");
  writeFileSync(join(box.root, ".gitignore"), ".env\n");
  writeFileSync(join(box.root, "app.ts"), "const token = process.env.API_TOKEN;\n");
  mkdirSync(join(box.home, ".ssh"));
  writeFileSync(join(box.home, ".ssh", "id_ed25519"), "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n");
  writeFileSync(join(box.home, "notes.txt"), "PRIVATE notes\n");
});
afterEach(async () => {
  await sim?.close();
  sim = undefined;
  box.cleanup();
});

const userSettings = (settings: unknown): void => writeJson(join(box.deepcodeHome, "settings.json"), { sandbox: { enabled: false }, ...(settings as object) });
const everythingSent = (s: Simulator): string => s.requests.map((r) => JSON.stringify(r.json ?? null)).join("\n");

describe("an @-mention obeys the permission rules", () => {
  it("does not put a file a user deny rule keeps from Read into the transcript (the reproduction: -p \"what is in @.env\")", async () => {
    userSettings({ permissions: { deny: ["Read(.env)"] } });
    sim = await startSim({ replies: [{ content: "I cannot see it." }] });
    const run = await runCli({ box, sim, prompt: "what is in @.env" });
    expect(run.result?.stop_reason, run.stderr).toBe("completed");
    expect(everythingSent(sim)).toContain("what is in @.env");
    expect(everythingSent(sim)).toContain("@.env: not attached: reading it is denied");
    expect(everythingSent(sim)).not.toContain("sk-live-e2e-123");
  }, CLI_HOOK_TIMEOUT_MS);

  it("does not attach a secret without a rule either: a Read of it would ask, and nobody is asked for a mention", async () => {
    userSettings({});
    sim = await startSim({ replies: [{ content: "ok" }] });
    const run = await runCli({ box, sim, prompt: "what is in @.env and @app.ts" });
    expect(run.result?.stop_reason, run.stderr).toBe("completed");
    expect(everythingSent(sim)).toContain("const token = process.env.API_TOKEN;");
    expect(everythingSent(sim)).toContain("@.env: not attached: reading it needs approval");
    expect(everythingSent(sim)).not.toContain("sk-live-e2e-123");
  }, CLI_HOOK_TIMEOUT_MS);
});

describe("Grep does not read what Read asks for", () => {
  it("does not return .env through a glob that overrides .gitignore (the reproduction), and says what it left out", async () => {
    userSettings({});
    sim = await startSim({ replies: [{ tool_calls: [{ id: "call_grep", name: "Grep", arguments: { pattern: "TOKEN", glob: ".env", output_mode: "content" } }] }, { content: "done" }] });
    const run = await runCli({ box, sim, prompt: "find the token" });
    expect(run.result?.stop_reason, run.stderr).toBe("completed");
    const result = toolResults(sim).get("call_grep") ?? "";
    expect(result).toMatch(/^No matches found\n\(Not searched: 1 file that may hold secrets — \.env\./);
    expect(everythingSent(sim)).not.toContain("sk-live-e2e-123");
  }, CLI_HOOK_TIMEOUT_MS);

  it("asks before searching ~ (so -p refuses), and even where a rule allows it, leaves ~/.ssh out", async () => {
    userSettings({});
    sim = await startSim({ replies: [{ tool_calls: [{ id: "call_home", name: "Grep", arguments: { path: "~", pattern: "PRIVATE", output_mode: "content" } }] }, { content: "done" }] });
    let run = await runCli({ box, sim, prompt: "search home" });
    expect(run.result?.stop_reason, run.stderr).toBe("completed");
    expect(toolResults(sim).get("call_home")).toMatch(/^Permission denied for Grep: deepcode runs non-interactively/);
    expect(everythingSent(sim)).not.toContain("b3BlbnNzaC1rZXk");
    await sim.close();

    userSettings({ permissions: { allow: ["Read(~/**)"] } });
    sim = await startSim({ replies: [{ tool_calls: [{ id: "call_home", name: "Grep", arguments: { path: "~", pattern: "PRIVATE", output_mode: "content" } }] }, { content: "done" }] });
    run = await runCli({ box, sim, prompt: "search home" });
    expect(run.result?.stop_reason, run.stderr).toBe("completed");
    const result = toolResults(sim).get("call_home") ?? "";
    expect(result).toContain(`${join(box.home, "notes.txt")}:1:PRIVATE notes`);
    expect(everythingSent(sim)).not.toContain("b3BlbnNzaC1rZXk");
  }, CLI_HOOK_TIMEOUT_MS);
});
