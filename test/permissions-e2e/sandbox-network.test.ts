// sandbox.network.allowedDomains in a real process (-p, so an ask is a denial): a loopback HTTP
// server on the host stands for a listed host. With the project's list ["localhost"], a plain
// `curl` download runs without a prompt and reaches it through deepcode's filtering proxy; the
// same server by its address is refused by the proxy (the listener sees one connection in all);
// `git push` still asks. A managed list bounds the project's: `localhost` is then refused.
// The proxy's socket folder is gone when deepcode exits.
// `deepcode permissions` names the hosts. Only loopback traffic. Skipped where bubblewrap
// cannot run, or without curl (named in the skip).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import { mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { sandboxStatus } from "../../mods/sandbox/index.js";
import { findOnPath } from "../../src/lib/path-lookup.js";
import type { Simulator } from "../sim/server.mjs";
import { API_KEY, CLI_HOOK_TIMEOUT_MS, REPO, bashCall, makeBox, projectSettings, runCli, startSim, toolResults, writeJson, type Box } from "./helpers.js";

const available = sandboxStatus().active;
const curl = findOnPath("curl", process.env.PATH ?? "") !== null;

let box: Box;
let sim: Simulator | undefined;
let server: Server;
let port = 0;
let connections = 0;

beforeAll(async () => {
  server = createServer((_req, res) => res.end("HELLO-LISTED-HOST\n"));
  server.on("connection", () => connections++);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  port = (server.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  box = makeBox();
  connections = 0;
});
afterEach(async () => {
  await sim?.close();
  sim = undefined;
  box.cleanup();
});

describe.skipIf(!available || !curl)(`sandbox.network.allowedDomains in a real process${!curl ? " (skipped: curl is not installed)" : ""}`, () => {
  it("runs a plain download to a listed host without a prompt, refuses other names at the proxy, and still asks for git push", async () => {
    projectSettings(box, { sandbox: { network: { allowedDomains: ["localhost"] } } });
    const calls = [
      bashCall("call_listed", `curl -sS --max-time 20 http://localhost:${port}/a`),
      bashCall("call_address", `curl -sS --max-time 20 http://127.0.0.1:${port}/b`),
      bashCall("call_push", "git push origin main"),
    ];
    sim = await startSim({ replies: [{ tool_calls: calls }, { content: "done" }] });
    // A temp folder of its own, to see that the proxy's socket folder is gone when deepcode is.
    const tmp = join(box.base, "tmp");
    mkdirSync(tmp);
    const run = await runCli({ box, sim, prompt: "fetch", env: { TMPDIR: tmp } });
    expect(run.code, run.stderr).toBe(0);
    expect(readdirSync(tmp).filter((n) => n.startsWith("deepcode-net-"))).toEqual([]);
    const results = toolResults(sim);
    expect(results.get("call_listed")).toContain("HELLO-LISTED-HOST");
    expect(results.get("call_address")).toMatch(/refused: 127\.0\.0\.1:\d+ is not in sandbox\.network\.allowedDomains/);
    expect(results.get("call_push")).toMatch(/^Permission denied for Bash/);
    expect(connections).toBe(1);
  }, CLI_HOOK_TIMEOUT_MS);

  it("lets a managed list bound the project's: a host only the project lists is refused", async () => {
    projectSettings(box, { sandbox: { network: { allowedDomains: ["localhost"] } } });
    const managed = join(box.base, "policy", "managed-settings.json");
    writeJson(managed, { sandbox: { network: { allowedDomains: ["corp.invalid"] } } });
    sim = await startSim({ replies: [{ tool_calls: [bashCall("call_listed", `curl -sS --max-time 20 http://localhost:${port}/a`)] }, { content: "done" }] });
    const run = await runCli({ box, sim, prompt: "fetch", managed });
    expect(run.code, run.stderr).toBe(0);
    expect(toolResults(sim).get("call_listed")).toMatch(/refused: localhost:\d+ is not in sandbox\.network\.allowedDomains/);
    expect(connections).toBe(0);
  }, CLI_HOOK_TIMEOUT_MS);

  it("`deepcode permissions` names the hosts the sandbox reaches", async () => {
    writeJson(join(box.deepcodeHome, "settings.json"), { sandbox: { network: { allowedDomains: ["registry.npmjs.org", "*.github.com"] } } });
    const out = await new Promise<string>((resolve, reject) => {
      const env = { PATH: process.env.PATH, HOME: box.home, DEEPCODE_HOME: box.deepcodeHome, DEEPSEEK_API_KEY: API_KEY, NO_COLOR: "1" };
      const child = spawn(process.execPath, [join(REPO, "bin", "deepcode.js"), "permissions"], { cwd: box.root, env, stdio: ["ignore", "pipe", "pipe"] });
      let text = "";
      child.stdout.on("data", (c: Buffer) => (text += c.toString()));
      child.on("error", reject);
      child.on("close", () => resolve(text));
    });
    expect(out).toMatch(/Bash sandbox: bwrap: .*network only to registry\.npmjs\.org, \*\.github\.com \(through deepcode's filtering proxy\)/);
  }, CLI_HOOK_TIMEOUT_MS);
});
