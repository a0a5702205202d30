// Dev servers in the sandbox (issue #35, item 8), judged by effect with real node servers in
// real bubblewrap: a background job's server is reached from the host's loopback at its own
// port; when the host port is taken nothing is bound, the job's output says so and the other
// server keeps answering; a later sandboxed command reaches the job's server with curl and node;
// nothing else of the host's loopback is reachable from a sandbox; the listeners close when the
// job ends. Only loopback traffic. Skipped where bubblewrap cannot run (CI installs it).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import plugin, { sandboxStatus } from "../../mods/sandbox/index.js";
import { findOnPath } from "../../src/lib/path-lookup.js";
import { accepts, freePort } from "../helpers/free-port.js";
import type { KnownStatus, PluginApi, ProcessRunRequest, ProcessRunResult, ServeNotice } from "../../src/contract/index.js";

const available = sandboxStatus().active;
const curl = findOnPath("curl", process.env.PATH ?? "");

type Hook = (e: ProcessRunRequest, next: (e: ProcessRunRequest) => Promise<ProcessRunResult>) => Promise<ProcessRunResult>;

let base: string;
let root: string;
let hook: Hook;
let status: () => KnownStatus["sandbox"];
const stops: Array<() => Promise<void>> = [];
const servers: Server[] = [];

function load(): void {
  const api = {
    id: "sandbox",
    readDenied: () => null,
    root,
    home: join(base, "deepcode-home"),
    config: {},
    settings: { get: () => undefined, layers: [], fileOf: () => undefined },
    host: { additionalDirectories: [] },
    log: { warn: () => undefined, info: () => undefined, error: () => undefined },
    on: (name: string, h: Hook) => {
      if (name === "process.run") hook = h;
    },
    status: (r: () => KnownStatus["sandbox"]) => (status = r),
  };
  // The mod uses only these members of the API.
  void plugin.register(api as unknown as PluginApi);
}

/** The core's end of process.run: a real spawn in a process group of its own, output as it
 *  comes, stopped by the request's signal (as the core stops a background job). */
function exec(e: ProcessRunRequest): Promise<ProcessRunResult> {
  return new Promise((resolve) => {
    const child = spawn(e.argv[0], e.argv.slice(1), { cwd: e.cwd, env: e.env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => {
      stdout += c.toString();
      e.onOutput?.(c.toString());
    });
    child.stderr.on("data", (c: Buffer) => {
      stderr += c.toString();
      e.onOutput?.(c.toString());
    });
    const kill = (): void => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // already gone
      }
    };
    e.signal?.addEventListener("abort", kill, { once: true });
    child.on("close", (code, signal) => resolve({ exitCode: code, signal, stdout, stderr, timedOut: false, interrupted: false, durationMs: 0, truncatedBytes: 0 }));
  });
}

function run(command: string): Promise<ProcessRunResult> {
  return hook({ argv: ["bash", "-c", command], cwd: root, timeoutMs: 60_000 }, exec);
}

interface Job {
  output(): string;
  notices: ServeNotice[];
  /** Resolves once `pattern` is in the job's output (a generous limit for a loaded machine). */
  waitFor(pattern: RegExp): Promise<void>;
  stop(): Promise<void>;
}

/** A background job, as the jobs mod starts one (`serve: true`). */
function job(command: string): Job {
  let out = "";
  const notices: ServeNotice[] = [];
  const controller = new AbortController();
  const done = hook({ argv: ["bash", "-c", command], cwd: root, timeoutMs: 600_000, serve: true, onOutput: (t) => (out += t), onServe: (n) => notices.push(n), signal: controller.signal }, exec);
  const stop = async (): Promise<void> => {
    controller.abort();
    await done;
  };
  stops.push(stop);
  return {
    output: () => out,
    notices,
    stop,
    waitFor: async (pattern) => {
      const limit = Date.now() + 60_000;
      while (!pattern.test(out)) {
        if (Date.now() > limit) throw new Error(`the job's output never matched ${pattern}:\n${out}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}

/** A node HTTP server answering `body`, listening at `host` (none: every address) inside. */
const nodeServer = (port: number, body: string, host?: string): string =>
  `exec node -e 'require("http").createServer((q, r) => r.end(${JSON.stringify(body)})).listen(${port}${host ? `, ${JSON.stringify(host)}` : ""}, () => console.log("listening"))'`;

async function get(url: string): Promise<string> {
  const r = await fetch(url);
  return r.text();
}

/** The test's own server on the host's loopback, counting connections. */
async function hostServer(port: number, body: string): Promise<{ connections: () => number }> {
  let n = 0;
  const server = createServer((_q, r) => r.end(body));
  server.on("connection", () => n++);
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", () => r()));
  servers.push(server);
  return { connections: () => n };
}

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "deepcode-serve-test-")));
  root = join(base, "ws");
  mkdirSync(root);
  mkdirSync(join(base, "home"));
});
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
  rmSync(base, { recursive: true, force: true });
});

describe.skipIf(!available)("a background job's server in the sandbox (real bubblewrap)", () => {
  it("is reachable from the host's loopback at its own port, the output says where, and the port closes when the job ends", async () => {
    load();
    const port = await freePort();
    const j = job(nodeServer(port, "HELLO-FROM-THE-JOB", "127.0.0.1"));
    await j.waitFor(/port \d+ is forwarded/);
    expect(j.output()).toContain(`port ${port} is forwarded: http://127.0.0.1:${port}`);
    expect(j.notices).toEqual([{ port, state: "forwarded", address: `http://127.0.0.1:${port}` }]);
    expect(await get(`http://127.0.0.1:${port}/`)).toBe("HELLO-FROM-THE-JOB");
    expect(status().served).toEqual([port]);
    await j.stop();
    expect(await accepts(port)).toBe(false);
    expect(status().served).toBeUndefined();
  });

  it("forwards a server listening on every address (node's default), which a second request reaches too", async () => {
    load();
    const port = await freePort();
    const j = job(nodeServer(port, "ANY-ADDRESS"));
    await j.waitFor(/port \d+ is forwarded/);
    expect(await get(`http://127.0.0.1:${port}/a`)).toBe("ANY-ADDRESS");
    expect(await get(`http://localhost:${port}/b`)).toBe("ANY-ADDRESS");
  });

  it("binds nothing when the host port is taken: the job is told, and the other server keeps answering", async () => {
    load();
    const port = await freePort();
    const mine = await hostServer(port, "THE-PERSONS-OWN-SERVER");
    const j = job(nodeServer(port, "THE-JOBS-SERVER", "127.0.0.1"));
    await j.waitFor(/port \d+ is not forwarded/);
    expect(j.output()).toMatch(new RegExp(`port ${port} is not forwarded to this machine: 127\\.0\\.0\\.1:${port} is already in use on this machine; nothing was bound`));
    expect(j.notices).toMatchObject([{ port, state: "taken" }]);
    expect(await get(`http://127.0.0.1:${port}/`)).toBe("THE-PERSONS-OWN-SERVER");
    expect(mine.connections()).toBe(1);
    expect(status().served).toBeUndefined();
  });

  it("is reached by a later sandboxed command's curl and node fetch, at localhost and 127.0.0.1", async () => {
    load();
    const port = await freePort();
    const j = job(nodeServer(port, "FROM-THE-JOB"));
    await j.waitFor(/port \d+ is forwarded/);
    const fetches = `node -e 'Promise.all(["http://localhost:${port}/", "http://127.0.0.1:${port}/"].map((u) => fetch(u).then((r) => r.text()))).then((t) => console.log("node", t.join(" ")), (e) => console.log("node failed", e.cause ?? e))'`;
    const r = await run(curl ? `${fetches}; curl -sS --max-time 30 http://localhost:${port}/; echo; curl -sS --max-time 30 http://127.0.0.1:${port}/` : fetches);
    expect(r.stdout, r.stderr).toContain("node FROM-THE-JOB FROM-THE-JOB");
    if (curl) expect(r.stdout).toContain("FROM-THE-JOB\nFROM-THE-JOB");
  });

  it("is reached by a command that started before the job's server listened (`sleep; curl`, a retry loop)", async () => {
    load();
    const port = await freePort();
    // The job waits before it listens; the command starts at once and tries for a while.
    const j = job(`sleep 1; ${nodeServer(port, "LATE-SERVER")}`);
    const tries = `node -e 'const go = (n) => fetch("http://127.0.0.1:${port}/").then((r) => r.text()).then((t) => console.log("got", t), () => (n > 0 ? setTimeout(() => go(n - 1), 250) : console.log("never reached"))); go(60)'`;
    const r = await run(tries);
    expect(r.stdout, r.stderr).toContain("got LATE-SERVER");
    await j.waitFor(/port \d+ is forwarded/);
  });

  it("leaves the rest of the host's loopback out of reach: a listener on another port gets no connection", async () => {
    load();
    const port = await freePort();
    const other = await freePort();
    const host = await hostServer(other, "SHOULD-NOT-BE-REACHED");
    const j = job(nodeServer(port, "FROM-THE-JOB"));
    await j.waitFor(/port \d+ is forwarded/);
    const probe = `node -e 'const net = require("net"); let n = 2; for (const h of ["127.0.0.1", "::1"]) { const s = net.connect(${other}, h); s.on("connect", () => { console.log("connected", h); s.destroy(); if (!--n) process.exit(); }); s.on("error", (e) => { console.log("refused", h, e.code); if (!--n) process.exit(); }); }'`;
    const r = await run(curl ? `${probe}; curl -sS --max-time 30 -o /dev/null http://127.0.0.1:${other}/ || echo curl refused` : probe);
    expect(r.stdout).not.toContain("connected");
    expect(r.stdout).toContain("refused 127.0.0.1");
    // A job started meanwhile claims the other port inside its own sandbox: still nothing reaches
    // the host's listener, which keeps its port (the job is told it is taken).
    const second = job(nodeServer(other, "SECOND-JOB"));
    await second.waitFor(/port \d+ is not forwarded/);
    expect(await get(`http://127.0.0.1:${other}/`)).toBe("SHOULD-NOT-BE-REACHED");
    expect(host.connections()).toBe(1); // the test's own request, just now
  });
});
