// A proxy or a server that accepts the connection and then says nothing: the run ends within
// the limits settings apiIdleTimeoutMs sets, with an error naming what did not answer, and the
// session continues with -c. Every run is bounded (runBounded): a hang fails the test.
import { createServer, type Server, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "../sim/server.mjs";
import { cliEnv, type CliEnv } from "../helpers/cli-env.js";
import { runBounded } from "./bounded.js";

let sim: Simulator | undefined;
let env: CliEnv | undefined;
let silent: { server: Server; sockets: Set<Socket>; port: number; accepted: number } | undefined;

afterEach(async () => {
  for (const s of silent?.sockets ?? []) s.destroy();
  await new Promise((r) => (silent ? silent.server.close(r) : r(undefined)));
  await sim?.close();
  env?.cleanup();
  sim = undefined;
  env = undefined;
  silent = undefined;
});

/** A loopback server that accepts every connection, reads what comes, and never writes. */
async function silentServer(): Promise<NonNullable<typeof silent>> {
  const sockets = new Set<Socket>();
  const state = { server: createServer(), sockets, port: 0, accepted: 0 };
  state.server.on("connection", (s) => {
    state.accepted++;
    sockets.add(s);
    s.on("data", () => undefined);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((r) => state.server.listen(0, "127.0.0.1", r));
  state.port = (state.server.address() as { port: number }).port;
  return state;
}

const SETTINGS = { ".deepcode/settings.json": JSON.stringify({ apiIdleTimeoutMs: 2000 }) };

describe("a peer that accepts and says nothing", () => {
  it("a hanging HTTPS proxy ends -p within the limit, naming the proxy", async () => {
    sim = await startSimulator({ script: { replies: [{ content: "never" }] }, apiKey: "sk-test-cli" });
    env = cliEnv(sim.url, SETTINGS);
    silent = await silentServer();
    const proxy = `127.0.0.1:${silent.port}`;
    // The target is never reached: only the loopback proxy sees its name in the CONNECT line.
    const r = await runBounded(["-p", "hi"], { cwd: env.root, env: { ...env.env, DEEPSEEK_BASE_URL: "https://api.deepseek.invalid", HTTPS_PROXY: `http://${proxy}` } });
    expect(r.hung).toBe(false);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`the proxy ${proxy} accepted the connection but did not answer the CONNECT to api.deepseek.invalid:443 within 2 s`);
    expect(r.stderr).not.toMatch(/deepcode: error: .*127\.0\.0\.1 within/);
    expect(silent.accepted).toBe(1); // not retried: a silent proxy stays silent
  });

  it("a server that sends nothing ends the run at apiIdleTimeoutMs; the session continues with -c", async () => {
    sim = await startSimulator({ script: { replies: [{ content: "here now" }] }, apiKey: "sk-test-cli" });
    env = cliEnv(sim.url, SETTINGS);
    silent = await silentServer();
    const r = await runBounded(["-p", "first question"], { cwd: env.root, env: { ...env.env, DEEPSEEK_BASE_URL: `http://127.0.0.1:${silent.port}` } });
    expect(r.hung).toBe(false);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`no response from 127.0.0.1 within 2 s (settings apiIdleTimeoutMs sets this limit)`);
    expect(r.stderr).toMatch(/deepcode -p -c "…" continues it/);
    const again = await runBounded(["-p", "-c", "second"], { cwd: env.root, env: env.env });
    expect(again.code).toBe(0);
    expect(again.stdout).toBe("here now\n");
    const users = (sim.requests[0].json as { messages: Array<{ role: string; content: string }> }).messages.filter((m) => m.role === "user").map((m) => m.content);
    expect(users).toEqual(["first question", "second"]);
  });
});
