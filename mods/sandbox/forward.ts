// The forwarder that runs inside the sandbox when `sandbox.network.allowedDomains` is set. The
// sandbox has no network of its own (only its own loopback) and cannot create a unix socket
// (seccomp.ts), so the command reaches deepcode's filtering proxy (proxy.ts) through the
// channel deepcode hands it as two inherited descriptors (channel.ts). This small program — run
// by the same node as deepcode (`process.execPath -e FORWARDER_SOURCE COMMAND…`) — listens on
// 127.0.0.1:<free port> of the sandbox's loopback, opens a "proxy" connection on the channel
// for each connection it accepts, and then starts the command with HTTP_PROXY, HTTPS_PROXY,
// http_proxy, https_proxy, ALL_PROXY and all_proxy pointing at that port (NO_PROXY and
// no_proxy empty; NODE_USE_ENV_PROXY=1, so the fetch of a node that reads it — 22.21+, 24 —
// uses them too). The command does not get the channel's descriptors (a shell closes them
// before it runs the command). The forwarder exits with the command's status (or dies of the
// same signal), passes SIGINT, SIGTERM and SIGHUP on, and starts nothing if it cannot listen.
//
// Kept as source text (not a file next to this one) so the same string works from the compiled
// dist/ and from the TypeScript sources under test; the multiplexer is channel.ts's own
// function, as text (`__name` is defined for the helper a test transform may add).

import { CHANNEL_IN_FD, CHANNEL_OUT_FD, createMux } from "./channel.js";

export const PROXY_ENV_NAMES = ["HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "ALL_PROXY", "all_proxy"] as const;

export const FORWARDER_SOURCE = `"use strict";
const net = require("node:net");
const cp = require("node:child_process");
const __name = (f) => f;
const createMux = ${createMux.toString()};
const cmd = process.argv.slice(1);
const input = new net.Socket({ fd: ${CHANNEL_IN_FD}, readable: true, writable: false });
const output = new net.Socket({ fd: ${CHANNEL_OUT_FD}, readable: false, writable: true });
output.on("error", () => input.destroy());
const mux = createMux(input, output, () => null, 1);
input.unref();
output.unref();
const server = net.createServer({ allowHalfOpen: true }, (c) => mux.open("proxy", c));
server.on("error", (e) => {
  process.stderr.write("deepcode sandbox: cannot start the network forwarder: " + e.message + "\\n");
  process.exit(126);
});
server.listen(0, "127.0.0.1", () => {
  server.unref();
  const url = "http://127.0.0.1:" + server.address().port;
  const env = { ...process.env };
  for (const k of ${JSON.stringify(PROXY_ENV_NAMES)}) env[k] = url;
  env.NO_PROXY = "";
  env.no_proxy = "";
  env.NODE_USE_ENV_PROXY = "1";
  const child = cp.spawn("/bin/sh", ["-c", 'exec "$@" ${CHANNEL_IN_FD}<&- ${CHANNEL_OUT_FD}>&-', "sh", ...cmd], { stdio: "inherit", env });
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
});
`;

/** The argv that runs `argv` behind the forwarder (what follows bwrap's `--`). */
export function forwardedArgv(argv: readonly string[], node: string = process.execPath): string[] {
  return [node, "-e", FORWARDER_SOURCE, ...argv];
}
