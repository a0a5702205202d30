import { afterEach, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { BIN } from "../helpers/cli-env.js";
import { call, cliRig, type CliRig } from "./helpers.js";

const SCRIPT = fileURLToPath(new URL("./claude-code-reader.mjs", import.meta.url));

let rig: CliRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

function runScript(r: CliRig, prompts: string[]): Promise<{ code: number | null; summary: Record<string, unknown> }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SCRIPT, ...prompts], { cwd: r.env.root, env: { ...r.env.env, AGENT_BIN: `${process.execPath} ${BIN}` } });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.on("close", (code) => resolve({ code, summary: JSON.parse(out || "{}") as Record<string, unknown> }));
  });
}

describe("a script written for Claude Code's json and stream-json output", () => {
  it("runs unchanged against deepcode: one prompt, then a resumed and streamed follow-up with a tool call", async () => {
    rig = await cliRig(
      { replies: [{ content: "The project has one file." }, { content: "Let me look.", ...call("Read", { file_path: "notes.txt" }) }, { content: "notes.txt says: ship it." }] },
      { "notes.txt": "ship it\n" },
    );
    const { code, summary } = await runScript(rig, ["what is here?", "and what does notes.txt say?"]);
    expect(code).toBe(0);
    expect(summary).toMatchObject({ subtype: "success", answer: "The project has one file.", turns: 1, denied: [] });
    expect(summary.session).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6}$/);
    expect(summary.cost as number).toBeGreaterThan(0);
    expect(summary.tokens as number).toBeGreaterThan(0);
    expect(summary.apiMs as number).toBeGreaterThan(0);
    expect(summary.stream).toMatchObject({
      init: { model: "deepseek-flash", cwd: rig.env.root, permissionMode: "default", mcp: [] },
      text: ["Let me look.", "notes.txt says: ship it."],
      toolsUsed: ['Read({"file_path":"notes.txt"})'],
      toolResults: 1,
      toolErrors: 0,
      result: { subtype: "success", answer: "notes.txt says: ship it.", isError: false, turns: 2, session: summary.session },
      sessions: [summary.session],
    });
    expect((summary.stream as { partial: number }).partial).toBeGreaterThan(0);
    // The follow-up really continued the first session.
    const last = rig.sim.requests.at(-1)!.json as { messages: Array<{ role: string; content: string }> };
    expect(last.messages.filter((m) => m.role === "user").map((m) => m.content)).toEqual(["what is here?", "and what does notes.txt say?"]);
  });

  it("sees deepcode's failures the way it sees Claude Code's: is_error and a subtype", async () => {
    rig = await cliRig({ replies: [{ fault: { status: 402 } }] });
    const { code, summary } = await runScript(rig, ["hi", "never sent"]);
    expect(code).toBe(1);
    expect(summary).toEqual({ failed: "error_during_execution" });
  });
});
