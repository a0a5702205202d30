// The forwarder that runs inside the sandbox when `sandbox.network.allowedDomains` is set. The
// sandbox has no network of its own (only its own loopback), so the command cannot reach
// deepcode's filtering proxy (proxy.ts) by TCP; the proxy's unix socket is bound into the
// sandbox instead, and this small program — run by the same node as deepcode
// (`process.execPath -e FORWARDER_SOURCE SOCKET COMMAND…`) — listens on 127.0.0.1:<free port>
// of the sandbox's loopback, pipes each connection to the socket, and then starts the command
// with HTTP_PROXY, HTTPS_PROXY, http_proxy, https_proxy, ALL_PROXY and all_proxy pointing at
// that port (NO_PROXY and no_proxy empty; NODE_USE_ENV_PROXY=1, so the fetch of a node that
// reads it — 22.21+, 24 — uses them too). It exits with the command's status (or dies of the
// same signal), passes SIGINT, SIGTERM and SIGHUP on, and starts nothing if it cannot listen.
//
// Kept as source text (not a file next to this one) so the same string works from the compiled
// dist/ and from the TypeScript sources under test.

/** Where the proxy's socket appears inside the sandbox (on the sandbox's private /run). */
export const SANDBOX_PROXY_SOCKET = "/run/deepcode-proxy.sock";

export const PROXY_ENV_NAMES = ["HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "ALL_PROXY", "all_proxy"] as const;

export const FORWARDER_SOURCE = `"use strict";
const net = require("node:net");
const cp = require("node:child_process");
const [sock, ...cmd] = process.argv.slice(1);
const server = net.createServer((c) => {
  const u = net.connect(sock);
  c.pipe(u);
  u.pipe(c);
  c.on("error", () => u.destroy());
  u.on("error", () => c.destroy());
  c.on("close", () => u.destroy());
  u.on("close", () => c.destroy());
});
server.on("error", (e) => {
  process.stderr.write("deepcode sandbox: cannot start the network forwarder: " + e.message + "\\n");
  process.exit(126);
});
server.listen(0, "127.0.0.1", () => {
  const url = "http://127.0.0.1:" + server.address().port;
  const env = { ...process.env };
  for (const k of ${JSON.stringify(PROXY_ENV_NAMES)}) env[k] = url;
  env.NO_PROXY = "";
  env.no_proxy = "";
  env.NODE_USE_ENV_PROXY = "1";
  const child = cp.spawn(cmd[0], cmd.slice(1), { stdio: "inherit", env });
  for (const s of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(s, () => child.kill(s));
  child.on("error", (e) => {
    process.stderr.write(cmd[0] + ": " + e.message + "\\n");
    process.exit(e.code === "ENOENT" ? 127 : 126);
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
  return [node, "-e", FORWARDER_SOURCE, SANDBOX_PROXY_SOCKET, ...argv];
}
