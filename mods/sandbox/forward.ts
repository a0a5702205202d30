// The forwarder that runs inside the sandbox, in front of a command that has a channel
// (channel.ts). The sandbox has no network of its own (only its own loopback) and cannot create
// a unix socket (seccomp.ts), so everything between the command and deepcode goes over the two
// inherited descriptors of the channel. This small program — run by the same node as deepcode
// (`process.execPath -e FORWARDER_SOURCE CONFIG COMMAND…`) — does what CONFIG (JSON, a
// ForwarderConfig) asks, then starts the command:
//   - `proxy` (sandbox.network.allowedDomains): listens on 127.0.0.1:<free port> of the
//     sandbox's loopback, opens a "proxy" connection for each connection it accepts, and points
//     HTTP_PROXY, HTTPS_PROXY, http_proxy, https_proxy, ALL_PROXY and all_proxy at that port
//     (NO_PROXY and no_proxy empty — or the loopback names when `ports` is not empty, so a
//     client reaches those directly; NODE_USE_ENV_PROXY=1, so the fetch of a node that reads it —
//     22.21+, 24 — uses them too);
//   - `ports` (the ports background jobs of this run serve, serve.ts): listens on 127.0.0.1 and
//     ::1 at each, and carries each connection to deepcode as "tcp:PORT" — so `curl
//     localhost:3000` in a later command reaches the job's server, and nothing else of the host;
//     with `watch` (a serving job is running), it also opens a "served" connection on which
//     deepcode says `listen PORT` / `close PORT` as jobs' ports come and go, and listens or stops
//     likewise — so `npm run dev &`'s port is there for `sleep 3; curl localhost:3000` too;
//   - `serve` (a background job): reads /proc/net/tcp and tcp6 — its own network namespace's —
//     every POLL_MS for sockets listening on loopback or on any address (its own listeners left
//     out), tells deepcode `listen PORT` / `close PORT` on a "ports" connection, and accepts
//     "tcp:PORT" from deepcode only for a port it saw listening, connecting to it inside.
// The command does not get the channel's descriptors (a shell closes them before it runs the
// command). The forwarder exits with the command's status (or dies of the same signal), passes
// SIGINT, SIGTERM and SIGHUP on, and starts nothing if it cannot listen for the proxy.
//
// Kept as source text (not a file next to this one) so the same string works from the compiled
// dist/ and from the TypeScript sources under test; the multiplexer is channel.ts's own
// function, as text (`__name` is defined for the helper a test transform may add).

import { CHANNEL_IN_FD, CHANNEL_OUT_FD, createMux } from "./channel.js";

export const PROXY_ENV_NAMES = ["HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "ALL_PROXY", "all_proxy"] as const;

/** What the forwarder does for one command (see above). */
export interface ForwarderConfig {
  proxy: boolean;
  serve: boolean;
  ports: readonly number[];
  /** Hear of ports forwarded later, while the command runs (a "served" connection). */
  watch?: boolean;
}

/** How often a serving forwarder looks for new listeners: a server is reachable from the host
 *  within this of its `listen`. */
export const POLL_MS = 250;

export const FORWARDER_SOURCE = `"use strict";
const net = require("node:net");
const fs = require("node:fs");
const cp = require("node:child_process");
const { Duplex, PassThrough } = require("node:stream");
const __name = (f) => f;
const createMux = ${createMux.toString()};
const conf = JSON.parse(process.argv[1]);
const cmd = process.argv.slice(2);
const input = new net.Socket({ fd: ${CHANNEL_IN_FD}, readable: true, writable: false });
const output = new net.Socket({ fd: ${CHANNEL_OUT_FD}, readable: false, writable: true });
output.on("error", () => input.destroy());
// Ports seen listening in this namespace, and the loopback address that reaches each.
const seen = new Map();
const own = new Set();
const mux = createMux(input, output, (service) => {
  const m = /^tcp:(\\d{1,5})$/.exec(service);
  const host = m ? seen.get(Number(m[1])) : undefined;
  return host ? net.connect({ host, port: Number(m[1]), allowHalfOpen: true }) : null;
}, 1);
input.unref();
output.unref();
const listen = (host, port, service) => new Promise((resolve) => {
  const server = net.createServer({ allowHalfOpen: true }, (c) => mux.open(service, c));
  server.once("error", (e) => resolve(e));
  server.listen(port, host, () => {
    server.unref();
    own.add(server.address().port);
    resolve(server);
  });
});
// A /proc/net/tcp{,6} address as the loopback address a connection to it takes, or null.
const reach = (hex, v6) => {
  if (!v6) return hex === "00000000" || hex.slice(6, 8) === "7F" ? "127.0.0.1" : null;
  if (/^0{24}(?:0{8}|01000000)$/.test(hex)) return "::1";
  return /^0{16}FFFF0000..0000/i.test(hex) && hex.slice(30, 32) === "7F" ? "127.0.0.1" : null;
};
const scan = (report) => {
  const now = new Map();
  for (const [file, v6] of [["/proc/net/tcp", false], ["/proc/net/tcp6", true]]) {
    let text = "";
    try { text = fs.readFileSync(file, "utf8"); } catch { continue; }
    for (const line of text.split("\\n").slice(1)) {
      const f = line.trim().split(/\\s+/);
      if (f.length < 4 || f[3] !== "0A") continue;
      const [addr, portHex] = f[1].split(":");
      const port = parseInt(portHex, 16);
      const host = reach(addr, v6);
      if (!host || own.has(port)) continue;
      if (!now.has(port) || host === "127.0.0.1") now.set(port, host);
    }
  }
  for (const [port, host] of now) {
    if (!seen.has(port)) report.write("listen " + port + "\\n");
    seen.set(port, host);
  }
  for (const port of [...seen.keys()]) if (!now.has(port)) {
    seen.delete(port);
    report.write("close " + port + "\\n");
  }
};
(async () => {
  const env = { ...process.env };
  if (conf.proxy) {
    const server = await listen("127.0.0.1", 0, "proxy");
    if (server instanceof Error) {
      process.stderr.write("deepcode sandbox: cannot start the network forwarder: " + server.message + "\\n");
      process.exit(126);
    }
    const url = "http://127.0.0.1:" + server.address().port;
    for (const k of ${JSON.stringify(PROXY_ENV_NAMES)}) env[k] = url;
    env.NO_PROXY = env.no_proxy = conf.ports.length > 0 || conf.watch ? "localhost,127.0.0.1,::1" : "";
    env.NODE_USE_ENV_PROXY = "1";
  }
  // Forwarded ports, each with the listeners carrying it: those of the start, then as told.
  const carried = new Map();
  const carry = async (port) => {
    if (carried.has(port)) return;
    carried.set(port, []);
    own.add(port);
    for (const host of ["127.0.0.1", "::1"]) {
      const server = await listen(host, port, "tcp:" + port);
      if (!(server instanceof Error)) carried.get(port)?.push(server);
    }
  };
  const drop = (port) => {
    for (const server of carried.get(port) ?? []) server.close();
    carried.delete(port);
  };
  for (const port of conf.ports) await carry(port);
  if (conf.watch) {
    let pending = "";
    const told = new Duplex({
      read() {},
      write(chunk, _enc, done) {
        pending += chunk.toString("latin1");
        const lines = pending.split("\\n");
        pending = lines.pop() ?? "";
        for (const line of lines) {
          const m = /^(listen|close) (\\d{1,5})$/.exec(line);
          if (m && m[1] === "listen") void carry(Number(m[2]));
          else if (m) drop(Number(m[2]));
        }
        done();
      },
    });
    mux.open("served", told);
  }
  const child = cp.spawn("/bin/sh", ["-c", 'exec "$@" ${CHANNEL_IN_FD}<&- ${CHANNEL_OUT_FD}>&-', "sh", ...cmd], { stdio: "inherit", env });
  if (conf.serve) {
    const report = new PassThrough();
    mux.open("ports", report);
    scan(report);
    setInterval(() => scan(report), ${POLL_MS}).unref();
  }
  for (const s of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(s, () => child.kill(s));
  child.on("error", (e) => {
    process.stderr.write("deepcode sandbox: /bin/sh: " + e.message + "\\n");
    process.exit(126);
  });
  child.on("exit", (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    } else process.exit(code === null ? 1 : code);
  });
})();
`;

/** The argv that runs `argv` behind the forwarder (what follows bwrap's `--`). */
export function forwardedArgv(argv: readonly string[], config: ForwarderConfig, node: string = process.execPath): string[] {
  return [node, "-e", FORWARDER_SOURCE, JSON.stringify(config), ...argv];
}
