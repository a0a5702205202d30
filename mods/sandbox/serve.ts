// A background job's server, reached from the host's loopback (issue #35: dev servers work).
//
// A job that asks for it (ProcessRunRequest.serve) runs behind the forwarder (forward.ts), which
// reports on its channel's "ports" connection each port its command starts or stops listening
// on inside the sandbox. For each, deepcode listens on the host at 127.0.0.1:PORT — and at
// ::1:PORT where the machine has IPv6 loopback — and carries every connection it accepts into
// the sandbox as "tcp:PORT" (inbound only: nothing inside can open a connection out this way).
//   - Only loopback is ever bound: the server is the person's and the agent's, not the LAN's.
//   - Never shadowed: when either address is taken on the host (the person's own server, another
//     job's), nothing is bound for that port, and the job is told (a line in its output). So
//     whatever answers at 127.0.0.1:PORT on the host is either this job's server or someone
//     else's that was there first, never a mix.
//   - The listeners close when the job stops listening or ends.
// The ports forwarded now are this run's one fact about them (`ports()`): a later sandboxed
// command reaches them as "tcp:PORT" through its own forwarder (deepcode connects to its own
// listener here and nowhere else of the host's loopback), the sandbox's status names them, and
// the permission gate lets WebFetch reach them without a question (the agent's own server).

import { createServer, connect, type Server, type Socket } from "node:net";
import { Duplex } from "node:stream";
import type { ServeNotice } from "../../src/contract/index.js";
import type { Mux, MuxSocket } from "./channel.js";

/** At most this many ports forwarded for one job (a command that listens on more is told). */
const MAX_PORTS_PER_JOB = 32;
/** A "ports" line longer than this is not a line: the connection is dropped. */
const MAX_LINE = 64;

export interface ServedJob {
  /** The answer to this job's "ports" connection. */
  accept(): MuxSocket;
  /** The job ended: its listeners close (resolves when they have). */
  release(): Promise<void>;
}

interface Forward {
  port: number;
  servers: Server[];
  /** The connections it carries: ended with it (a browser's keep-alive would hold it open). */
  sockets: Set<Socket>;
  owner: object;
}

export class ServedPorts {
  private readonly forwards = new Map<number, Forward>();
  /** Serving jobs running now: while there is one, every command hears of new ports. */
  private jobs = 0;
  /** Commands' "served" connections: each hears `listen PORT` / `close PORT`. */
  private readonly watchers = new Set<Duplex>();

  /** A serving job is running (its ports may come while another command runs). */
  watching(): boolean {
    return this.jobs > 0 || this.forwards.size > 0;
  }

  /** A command's "served" connection: the ports forwarded now, then each change, as lines. */
  watcher(): MuxSocket {
    const d = new Duplex({
      read() {
        // lines are pushed as ports change
      },
      write(_chunk: Buffer, _enc, done) {
        done(); // the command's forwarder sends nothing on this connection
      },
    });
    this.watchers.add(d);
    const forget = (): void => {
      this.watchers.delete(d);
    };
    d.once("close", forget);
    d.once("finish", forget);
    for (const port of this.ports()) d.push(`listen ${port}\n`);
    return d;
  }

  private announce(line: string): void {
    for (const d of this.watchers) if (!d.destroyed) d.push(`${line}\n`);
  }

  /** The ports forwarded now, lowest first. */
  ports(): number[] {
    return [...this.forwards.keys()].sort((a, b) => a - b);
  }

  /** A command's connection to "tcp:PORT": to deepcode's own listener for a forwarded port, on
   *  the host's loopback; anything else is refused (null). */
  client(service: string): MuxSocket | null {
    const m = /^tcp:(\d{1,5})$/.exec(service);
    if (!m || !this.forwards.has(Number(m[1]))) return null;
    return connect({ host: "127.0.0.1", port: Number(m[1]), allowHalfOpen: true });
  }

  /** A serving job's side: `mux` is its channel, `tell` hears what became of each port. */
  job(mux: Mux, tell: (n: ServeNotice) => void): ServedJob {
    const owner = {};
    const mine = new Set<number>();
    let ended = false;
    this.jobs++;
    let queue: Promise<void> = Promise.resolve();
    const then = (step: () => Promise<void>): void => {
      queue = queue.then(step).catch(() => undefined); // each step reports its own failure through tell
    };
    const open = async (port: number): Promise<void> => {
      if (ended || mine.has(port)) return;
      if (mine.size >= MAX_PORTS_PER_JOB) return tell({ port, state: "taken", detail: `this job already has ${MAX_PORTS_PER_JOB} ports forwarded` });
      if (this.forwards.has(port)) return tell({ port, state: "taken", detail: "another background job's server has it" });
      const sockets = new Set<Socket>();
      const bound = await bindLoopback(port, (socket) => {
        sockets.add(socket);
        socket.once("close", () => sockets.delete(socket));
        mux.open(`tcp:${port}`, socket);
      });
      if ("problem" in bound) return tell({ port, state: "taken", detail: bound.problem });
      if (ended || this.forwards.has(port)) {
        await closeAll(bound.servers, sockets);
        return;
      }
      this.forwards.set(port, { port, servers: bound.servers, sockets, owner });
      mine.add(port);
      this.announce(`listen ${port}`);
      tell({ port, state: "forwarded", address: `http://127.0.0.1:${port}` });
    };
    const close = async (port: number): Promise<void> => {
      const f = this.forwards.get(port);
      if (!f || f.owner !== owner) return;
      this.forwards.delete(port);
      mine.delete(port);
      this.announce(`close ${port}`);
      await closeAll(f.servers, f.sockets);
      tell({ port, state: "closed" });
    };
    return {
      accept: () => {
        let pending = "";
        return new Duplex({
          read() {
            // deepcode sends nothing on this connection
          },
          write(chunk: Buffer, _enc, done) {
            pending += chunk.toString("latin1");
            const lines = pending.split("\n");
            pending = lines.pop() ?? "";
            if (pending.length > MAX_LINE) return done(new Error("not a ports line"));
            for (const line of lines) {
              const m = /^(listen|close) (\d{1,5})$/.exec(line);
              const port = m ? Number(m[2]) : 0;
              if (!m || port < 1 || port > 65535) return done(new Error("not a ports line"));
              then(() => (m[1] === "listen" ? open(port) : close(port)));
            }
            done();
          },
        });
      },
      release: async () => {
        if (!ended) this.jobs--;
        ended = true;
        then(async () => {
          for (const port of [...mine]) await close(port);
        });
        await queue;
      },
    };
  }
}

/** Listen on 127.0.0.1:port, then ::1:port where the machine has it; neither when either is
 *  taken (or cannot be had), with the reason. */
async function bindLoopback(port: number, onConnection: (s: Socket) => void): Promise<{ servers: Server[] } | { problem: string }> {
  const v4 = await listenOn("127.0.0.1", port, onConnection);
  if ("problem" in v4) return v4;
  const v6 = await listenOn("::1", port, onConnection);
  if ("server" in v6) return { servers: [v4.server, v6.server] };
  if (v6.code === "EADDRNOTAVAIL" || v6.code === "EAFNOSUPPORT") return { servers: [v4.server] }; // no IPv6 loopback here: nobody can hold it
  await closeAll([v4.server], new Set());
  return v6;
}

function listenOn(host: string, port: number, onConnection: (s: Socket) => void): Promise<{ server: Server } | { problem: string; code?: string }> {
  return new Promise((resolve) => {
    const server = createServer({ allowHalfOpen: true }, onConnection);
    server.once("error", (err: NodeJS.ErrnoException) => {
      const problem = err.code === "EADDRINUSE" ? `${host}:${port} is already in use on this machine` : err.code === "EACCES" ? `deepcode may not listen on port ${port} here` : `${host}:${port}: ${err.message}`;
      resolve({ problem, ...(err.code ? { code: err.code } : {}) });
    });
    server.listen({ host, port, exclusive: true }, () => {
      server.unref();
      resolve({ server });
    });
  });
}

function closeAll(servers: readonly Server[], sockets: Set<Socket>): Promise<void> {
  for (const s of sockets) s.destroy();
  return Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r())))).then(() => undefined);
}

/** The line a serving job's output gets for a notice (none for a close). */
export function serveLine(n: ServeNotice): string | null {
  if (n.state === "forwarded") return `[deepcode sandbox: port ${n.port} is forwarded: ${n.address} on this machine reaches this job's server]\n`;
  if (n.state === "taken") return `[deepcode sandbox: port ${n.port} is not forwarded to this machine: ${n.detail ?? "it is taken"}; nothing was bound there, and whatever holds it keeps it. Use another port to reach this server from outside the sandbox.]\n`;
  return null;
}
