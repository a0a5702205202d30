// A free loopback port for a server a test starts by number (the everything server's PORT) or
// for a port nobody listens on. Chosen below the kernel's ephemeral range: every `listen(0)` in
// the suite (the simulator, fakes — in this worker, the other worker or a suite beside this
// one) takes its port from that range, so it cannot take this one between the check and its use.
// (A port from `listen(0)`, closed and handed on, was taken by a simulator in between: a test
// then talked to the simulator.)
import { readFileSync } from "node:fs";
import { connect, createServer } from "node:net";

function ephemeralLow(): number {
  try {
    const low = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 11_000 ? low : 32_768;
  } catch {
    return 32_768; // not Linux: Linux's default range
  }
}

function tryListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once("error", () => resolve(false));
    s.listen(port, "127.0.0.1", () => s.close(() => resolve(true)));
  });
}

export async function freePort(): Promise<number> {
  const low = ephemeralLow();
  for (let i = 0; i < 100; i++) {
    const port = 10_000 + Math.floor(Math.random() * (low - 10_000));
    if (await tryListen(port)) return port;
  }
  throw new Error(`no free port found between 10000 and ${low}`);
}

/** Whether anything accepts a TCP connection at 127.0.0.1:port on this machine. */
export function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host: "127.0.0.1", port });
    s.once("connect", () => {
      s.destroy();
      resolve(true);
    });
    s.once("error", () => resolve(false));
  });
}
