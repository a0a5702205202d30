// sandbox.network.allowedDomains, judged by effect with real bash in real bubblewrap: a loopback
// HTTP server on the host stands for "the internet". A listed name (`localhost`, resolved by
// the proxy on the host) is reached through deepcode's filtering proxy (over the command's
// channel: large bodies, several connections at once), with curl and with node; every other spelling — the IP literal, a trailing dot, uppercase, userinfo tricks,
// numeric forms, a subdomain, CONNECT to an address — gets a 403 and the listener sees no
// connection; a direct connection and DNS fail; the proxy is gone after the session's end.
// Only loopback traffic. Skipped where bubblewrap cannot run (CI installs it).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect } from "node:net";
import plugin, { sandboxStatus } from "../../mods/sandbox/index.js";
import { findOnPath } from "../../src/lib/path-lookup.js";
import type { PluginApi, ProcessRunRequest, ProcessRunResult } from "../../src/contract/index.js";

const available = sandboxStatus().active;
const curl = findOnPath("curl", process.env.PATH ?? "");

type Hook = (e: ProcessRunRequest, next: (e: ProcessRunRequest) => Promise<ProcessRunResult>) => Promise<ProcessRunResult>;
type EndHook = (e: unknown, next: () => Promise<void>) => Promise<void>;

let base: string;
let root: string;
let hook: Hook;
let endSession: () => Promise<void>;
let status: () => unknown;
const warnings: string[] = [];

/** The mod registered against a fake API that keeps its hooks. */
function load(network: unknown): void {
  const api = {
    id: "sandbox",
    readDenied: () => null,
    root,
    home: join(base, "deepcode-home"),
    config: {},
    settings: { get: (key: string) => (key === "sandbox" ? { network } : undefined), layers: [], fileOf: () => undefined },
    host: { additionalDirectories: [] },
    log: { warn: (m: string) => warnings.push(m), info: () => undefined, error: () => undefined },
    on: (name: string, h: Hook | EndHook) => {
      if (name === "process.run") hook = h as Hook;
      if (name === "session.end") endSession = () => (h as EndHook)({ type: "session.end", sessionId: "s", reason: "exit" }, async () => undefined);
    },
    status: (r: () => unknown) => (status = r),
  };
  // The mod uses only these members of the API.
  void plugin.register(api as unknown as PluginApi);
}

function exec(e: ProcessRunRequest): Promise<ProcessRunResult> {
  return new Promise((resolve) => {
    const child = spawn(e.argv[0], e.argv.slice(1), { cwd: e.cwd, env: { PATH: process.env.PATH ?? "", HOME: join(base, "home") }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("close", (code) => resolve({ exitCode: code, signal: null, stdout, stderr, timedOut: false, interrupted: false, durationMs: 0, truncatedBytes: 0 }));
  });
}

function run(command: string): Promise<ProcessRunResult> {
  return hook({ argv: ["bash", "-c", command], cwd: root, timeoutMs: 60_000 }, exec);
}

/** A body larger than any buffer on the way (the channel's frames, the FIFOs, the sockets). */
const BIG = Buffer.alloc(4 * 1024 * 1024, "x");

// The host's listener: counts every TCP connection it accepts.
let server: Server;
let port = 0;
let connections = 0;
beforeAll(async () => {
  server = createServer((req, res) => res.end(req.url === "/big" ? BIG : "HELLO-FROM-HOST\n"));
  server.on("connection", () => connections++);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  port = (server.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "deepcode-net-test-")));
  root = join(base, "ws");
  mkdirSync(root);
  mkdirSync(join(base, "home"));
  warnings.length = 0;
});
afterEach(async () => {
  await endSession?.();
  rmSync(base, { recursive: true, force: true });
});

/** A node script run in the sandbox: sends each raw request to $HTTP_PROXY and prints
 *  "<label> <status line>" (or "<label> ERR <code>"). It ends its side once the answer's head
 *  has come (or the proxy closes): waits for the answer, never for a time. */
function rawClient(requests: Array<[string, string]>): string {
  const src = `const net=require("net");const u=new URL(process.env.HTTP_PROXY);const reqs=${JSON.stringify(requests)};
(async()=>{for(const [label,raw] of reqs){await new Promise((res)=>{const s=net.connect(+u.port,u.hostname);let buf="";
s.on("data",(d)=>{buf+=d;if(buf.includes("\\r\\n\\r\\n"))s.end();});s.on("error",(e)=>{console.log(label+" ERR "+e.code);res();});
s.on("close",()=>{console.log(label+" "+(buf?buf.split("\\r\\n")[0]:"closed without an answer"));res();});s.write(raw);});}})();`;
  writeFileSync(join(root, "client.js"), src);
  return `node client.js`;
}

describe.skipIf(!available)("sandbox.network.allowedDomains through the filtering proxy (real bubblewrap)", () => {
  it("reports the allowed hosts and stays a sandbox without network for the gate", () => {
    load({ allowedDomains: ["localhost", "*.Example.com", "bad/url"] });
    expect(status()).toMatchObject({ active: true, mechanism: "bwrap", network: false, allowedDomains: ["localhost", "*.example.com"] });
    expect(warnings.join("\n")).toMatch(/allowedDomains entry "bad\/url" is not a host name/);
    expect(sandboxStatus({ allowedDomains: [{ host: "localhost", wildcard: false }] }).detail).toMatch(/network only to localhost \(through deepcode's filtering proxy\)$/);
  });

  it.skipIf(!curl)("lets curl reach a listed host (http, and a CONNECT tunnel), resolved by the proxy on the host", async () => {
    load({ allowedDomains: ["localhost"] });
    const r = await run(`env | grep -i _proxy= | sort; curl -sS --max-time 20 http://localhost:${port}/a; curl -sS --max-time 20 -p http://localhost:${port}/b`);
    expect(r.stdout).toMatch(/^HTTPS_PROXY=http:\/\/127\.0\.0\.1:\d+$/m);
    expect(r.stdout).toMatch(/^NO_PROXY=$/m);
    expect(r.stdout.match(/HELLO-FROM-HOST/g)?.length).toBe(2);
    expect(r.exitCode).toBe(0);
  });

  it.skipIf(!curl)("carries large bodies over several connections at once, and curl to a host not on the list gets the proxy's 403", async () => {
    load({ allowedDomains: ["localhost"] });
    const r = await run(`for i in 1 2 3 4; do curl -sS --max-time 60 http://localhost:${port}/big | wc -c & done; wait`);
    expect(r.stdout.match(/^\s*4194304$/gm), r.stdout + r.stderr).toHaveLength(4);
    const before = connections;
    const refused = await run(
      `curl -sS --max-time 20 -o /dev/null -w 'refused %{http_code}\\n' http://127.0.0.1:${port}/; ` +
        `curl -sS --max-time 20 -o /dev/null -w 'refused %{http_code}\\n' http://not-listed.test/`,
    );
    expect(refused.stdout).toBe("refused 403\nrefused 403\n");
    expect(connections).toBe(before);
  });

  it("lets node reach a listed host through $HTTP_PROXY (an absolute-URI request)", async () => {
    load({ allowedDomains: ["localhost"] });
    const r = await run(rawClient([["ok", `GET http://localhost:${port}/n HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`]]));
    expect(r.stdout).toContain("ok HTTP/1.1 200");
  });

  it("refuses every other spelling with a 403 before connecting: the listener receives nothing", async () => {
    load({ allowedDomains: ["localhost"] });
    const get = (url: string): string => `GET ${url} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`;
    const tunnel = (to: string): string => `CONNECT ${to} HTTP/1.1\r\nHost: ${to}\r\n\r\n`;
    const before = connections;
    const r = await run(
      rawClient([
        ["ip", get(`http://127.0.0.1:${port}/`)],
        ["dot", get(`http://localhost.:${port}/`)],
        ["upper", get(`http://LOCALHOST:${port}/`)],
        ["userinfo", get(`http://localhost@127.0.0.1:${port}/`)],
        ["userinfo2", get(`http://localhost:${port}@127.0.0.1/`)],
        ["sub", get(`http://a.localhost:${port}/`)],
        ["decimal", get(`http://2130706433:${port}/`)],
        ["short", get(`http://127.1:${port}/`)],
        ["v6", get(`http://[::1]:${port}/`)],
        ["relative", get(`/`)],
        ["c-ip", tunnel(`127.0.0.1:${port}`)],
        ["c-dot", tunnel(`localhost.:${port}`)],
        ["c-upper", tunnel(`Localhost:${port}`)],
        ["c-v6", tunnel(`[::1]:${port}`)],
        ["c-userinfo", tunnel(`localhost@127.0.0.1:${port}`)],
      ]),
    );
    const lines = r.stdout.trim().split("\n");
    expect(lines, r.stdout + r.stderr).toHaveLength(15);
    for (const l of lines) expect(l).toMatch(/^\S+ HTTP\/1\.1 403/);
    expect(connections).toBe(before);
  });

  it("allows a wildcard's subdomains only, and a port-bound entry only on its port", async () => {
    load({ allowedDomains: ["*.localhost", `localhost:${port + 1 > 65535 ? 1 : port + 1}`] });
    const before = connections;
    const r = await run(rawClient([["bare", `GET http://localhost:${port}/ HTTP/1.1\r\nHost: x\r\n\r\n`]]));
    expect(r.stdout).toContain("bare HTTP/1.1 403");
    expect(connections).toBe(before);
  });

  it("gives no way around the proxy: a direct connection to the host's loopback and DNS fail", async () => {
    load({ allowedDomains: ["localhost"] });
    const before = connections;
    const r = await run(
      `node -e 'require("net").connect(${port},"127.0.0.1").on("connect",()=>console.log("DIRECT-OPEN")).on("error",(e)=>console.log("direct",e.code))'; ` +
        `node -e 'require("dns").lookup("example.com",(e,a)=>console.log(e?"dns "+e.code:"DNS-RESOLVED "+a))'`,
    );
    expect(r.stdout).toMatch(/direct ECONNREFUSED/);
    expect(r.stdout).not.toContain("DIRECT-OPEN");
    expect(r.stdout).toMatch(/dns E/);
    expect(connections).toBe(before);
  });

  it("closes the proxy at the session's end: its socket is gone, and the next command starts a new one", async () => {
    // A temporary folder of this test's own: another suite on the machine makes proxies too.
    const own = mkdtempSync(join(base, "tmp-"));
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = own;
    let made: string[];
    try {
      load({ allowedDomains: ["localhost"] });
      await run("true");
      made = readdirSync(own).filter((n) => n.startsWith("deepcode-net-"));
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
    expect(made).toHaveLength(1);
    const sock = join(own, made[0], "proxy.sock");
    await endSession();
    expect(existsSync(sock)).toBe(false);
    const err = await new Promise<string>((r) => connect(sock).on("error", (e: NodeJS.ErrnoException) => r(e.code ?? "")).on("connect", () => r("connected")));
    expect(err).toBe("ENOENT");
    const again = await run(rawClient([["again", `GET http://localhost:${port}/ HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`]]));
    expect(again.stdout).toContain("again HTTP/1.1 200");
  });

  it.skipIf(!curl)("closes each command's channel when the command ends: deepcode keeps no descriptor of it", async () => {
    load({ allowedDomains: ["localhost"] });
    // The channel's FIFOs, as deepcode holds them (their names are removed at once).
    const fifos = (): string[] =>
      readdirSync("/proc/self/fd").flatMap((fd) => {
        try {
          const to = readlinkSync(`/proc/self/fd/${fd}`);
          return to.includes("deepcode-fifo-") ? [to] : [];
        } catch {
          return []; // closed meanwhile (readdir's own descriptor)
        }
      });
    for (let i = 0; i < 3; i++) expect((await run(`curl -sS --max-time 20 http://localhost:${port}/`)).stdout).toBe("HELLO-FROM-HOST\n");
    expect(fifos()).toEqual([]);
    // (While one runs, deepcode holds its two.)
    const running = run(`curl -sS --max-time 20 http://localhost:${port}/ && while [ ! -e go ]; do sleep 0.1; done`);
    while (fifos().length < 2) await new Promise((r) => setTimeout(r, 20)); // until the command has started
    expect(fifos()).toHaveLength(2);
    writeFileSync(join(root, "go"), "");
    await running;
    expect(fifos()).toEqual([]);
  });

  it("leaves the command none of the channel's descriptors (only what the forwarder needs)", async () => {
    load({ allowedDomains: ["localhost"] });
    const r = await run("ls /proc/$$/fd; true"); // bash's own (not ls's: "; true" keeps bash from exec-ing ls)
    expect(r.stdout.split("\n")).toEqual(expect.arrayContaining(["0", "1", "2"]));
    expect(r.stdout.split("\n")).not.toEqual(expect.arrayContaining(["4"]));
    expect(r.stdout.split("\n")).not.toEqual(expect.arrayContaining(["5"]));
  });

  it("passes the command's output and exit status through the forwarder", async () => {
    load({ allowedDomains: ["localhost"] });
    const r = await run("echo out; echo err >&2; exit 7");
    expect(r.stdout).toBe("out\n");
    expect(r.stderr).toBe("err\n");
    expect(r.exitCode).toBe(7);
  });

  it("without allowedDomains: no proxy variables and nothing reachable", async () => {
    load(undefined);
    const r = await run(`echo "proxy=[$HTTP_PROXY]"; node -e 'require("net").connect(${port},"127.0.0.1").on("connect",()=>console.log("DIRECT-OPEN")).on("error",(e)=>console.log("direct",e.code))'`);
    expect(r.stdout).toContain("proxy=[]");
    expect(r.stdout).toContain("direct ECONNREFUSED");
  });
});
