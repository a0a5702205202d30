// The channel between deepcode and a sandboxed command: for `sandbox.network.allowedDomains`,
// for a background job's server reached from the host, and for a later command reaching that
// server. Inside the sandbox no unix socket can be created (seccomp.ts), so the filtering
// proxy's socket cannot be connected to from there; instead each command gets two FIFOs as
// inherited descriptors (inherit.ts) — one each way — and both ends multiplex connections over
// them:
//
//   frame = type (u8) · connection id (u32, big-endian) · payload length (u32, big-endian) · payload
//   OPEN  (1)  a new connection; the payload names the service wanted ("proxy")
//   DATA  (2)  bytes for that connection (at most MAX_PAYLOAD)
//   END   (3)  its sender will write no more (half close); the other direction goes on
//   CLOSE (4)  its sender's side is gone: what was received is delivered, then it is closed
//
// Either end may open connections: the sandbox's end uses odd ids, deepcode's even ones, so they
// never collide. The services (the forwarder, forward.ts, is the sandbox's end):
//   sandbox → deepcode  "proxy"     the filtering proxy (allowedDomains only)
//                       "ports"     a background job's forwarder reports, one line each,
//                                   `listen PORT` / `close PORT` as its command starts and stops
//                                   listening (serve.ts binds the host's loopback for it)
//                       "tcp:PORT"  a command reaches a port a job of this run serves; deepcode
//                                   connects to its own listener on the host's loopback at PORT
//   deepcode → sandbox  "tcp:PORT"  inbound from the host's loopback to a job's server; the
//                                   forwarder accepts it only for a port it saw listening
// deepcode's end answers only what the command was given (index.ts decides; serve.ts judges
// ports): whatever inside the sandbox speaks to the channel reaches nothing else.
//
// Flow control is by pausing: when the channel's writer is full every connection's reading
// pauses until it drains; when a connection's socket is full, the channel's reading pauses until
// it drains (memory stays bounded; one slow reader slows the others of the same command).
//
// `createMux` is self-contained — it uses only its parameters and Buffer — because its source
// text also runs inside the sandbox, in the forwarder (forward.ts).

import { Socket } from "node:net";
import type { Inherited } from "./inherit.js";
import { heldFifos } from "./inherit.js";

/** What the multiplexer needs of a connection's socket (a net.Socket). */
export interface MuxSocket {
  write(data: Buffer): boolean;
  end(cb?: () => void): unknown;
  destroy(): unknown;
  pause(): unknown;
  resume(): unknown;
  on(event: string, listener: (...args: never[]) => void): unknown;
  once(event: string, listener: (...args: never[]) => void): unknown;
  removeListener(event: string, listener: (...args: never[]) => void): unknown;
}

export interface MuxInput {
  on(event: string, listener: (...args: never[]) => void): unknown;
  pause(): unknown;
  resume(): unknown;
}

export interface MuxOutput {
  write(data: Buffer): boolean;
  once(event: "drain", listener: () => void): unknown;
}

export interface Mux {
  /** Open a connection to the other end's `service`, carrying `socket`. */
  open(service: string, socket: MuxSocket): void;
  /** Close every connection; the channel is not used again. */
  close(): void;
}

/**
 * Multiplex connections over `input` (frames from the other end) and `output` (frames to it).
 * `accept` answers an OPEN from the other end: the socket to carry it, or null (closed at once).
 * `firstId`: 1 on the sandbox's end, 2 on deepcode's. `onEnd` hears the channel close (the
 * other end went away, or sent something that is not a frame).
 */
export function createMux(input: MuxInput, output: MuxOutput, accept: (service: string) => MuxSocket | null, firstId: number, onEnd?: (why: string) => void): Mux {
  const OPEN = 1;
  const DATA = 2;
  const END = 3;
  const CLOSE = 4;
  const HEAD = 9;
  const MAX_PAYLOAD = 1 << 20;
  const conns = new Map<number, MuxSocket>();
  let nextId = firstId;
  let pending: Buffer = Buffer.alloc(0);
  let full = false;
  let stalled = 0;
  let dead = false;

  const frame = (type: number, id: number, payload?: Buffer): void => {
    if (dead) return;
    const head = Buffer.alloc(HEAD);
    head.writeUInt8(type, 0);
    head.writeUInt32BE(id, 1);
    head.writeUInt32BE(payload ? payload.length : 0, 5);
    const ok = output.write(payload && payload.length > 0 ? Buffer.concat([head, payload]) : head);
    if (!ok && !full) {
      full = true;
      for (const s of conns.values()) s.pause();
      output.once("drain", () => {
        full = false;
        for (const s of conns.values()) s.resume();
      });
    }
  };

  const bind = (id: number, s: MuxSocket): void => {
    conns.set(id, s);
    if (full) s.pause();
    s.on("data", (d: Buffer) => {
      for (let at = 0; at < d.length; at += MAX_PAYLOAD) frame(DATA, id, d.subarray(at, at + MAX_PAYLOAD));
    });
    s.on("end", () => frame(END, id));
    s.on("error", () => s.destroy());
    s.on("close", () => {
      if (conns.get(id) !== s) return; // closed by the other end's CLOSE: nothing to say
      conns.delete(id);
      frame(CLOSE, id);
    });
  };

  // A connection whose socket is full stops the channel's reading until it drains (or closes).
  const stall = (s: MuxSocket): void => {
    stalled++;
    input.pause();
    let done = false;
    const go = (): void => {
      if (done) return;
      done = true;
      s.removeListener("drain", go);
      s.removeListener("close", go);
      if (--stalled === 0 && !dead) input.resume();
    };
    s.once("drain", go);
    s.once("close", go);
  };

  const shut = (why: string): void => {
    if (dead) return;
    dead = true;
    const all = [...conns.values()];
    conns.clear();
    for (const s of all) s.destroy();
    if (onEnd) onEnd(why);
  };

  const receive = (type: number, id: number, payload: Buffer): void => {
    const s = conns.get(id);
    if (type === OPEN) {
      if (s || id % 2 === firstId % 2) return shut(`connection ${id} opened twice or with this end's id`);
      const carrier = accept(payload.toString("utf8"));
      if (carrier) bind(id, carrier);
      else frame(CLOSE, id);
    } else if (!s) {
      // DATA, END or CLOSE for a connection this end has closed already: they crossed.
    } else if (type === DATA) {
      if (!s.write(Buffer.from(payload))) stall(s);
    } else if (type === END) s.end();
    else {
      conns.delete(id);
      s.end(() => s.destroy());
    }
  };

  input.on("data", (chunk: Buffer) => {
    pending = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
    while (!dead && pending.length >= HEAD) {
      const type = pending.readUInt8(0);
      const id = pending.readUInt32BE(1);
      const len = pending.readUInt32BE(5);
      if (type < OPEN || type > CLOSE || len > MAX_PAYLOAD) return shut("the channel carried something that is not a frame");
      if (pending.length < HEAD + len) return;
      const payload = pending.subarray(HEAD, HEAD + len);
      pending = pending.subarray(HEAD + len);
      receive(type, id, payload);
    }
  });
  input.on("end", () => shut("the other end closed the channel"));
  input.on("error", () => shut("the channel failed"));
  input.on("close", () => shut("the channel closed"));

  return {
    open(service, s) {
      if (dead) {
        s.destroy();
        return;
      }
      const id = nextId;
      nextId += 2;
      // Bound first: the other end's answer may come back within the write (in-process pipes),
      // and a socket's data only comes later.
      bind(id, s);
      frame(OPEN, id, Buffer.from(service, "utf8"));
    },
    close() {
      shut("closed");
    },
  };
}

/** The descriptors the forwarder reads frames from and writes frames to, inside the sandbox
 *  (3 is bubblewrap's seccomp program, read and closed before the command starts). */
export const CHANNEL_IN_FD = 4;
export const CHANNEL_OUT_FD = 5;

/** deepcode's end of one command's channel: `files` for the command's argv (inherit.ts), `mux`
 *  to open connections into the sandbox, and `close` once the command has ended (resolves when
 *  its descriptors are closed). */
export interface HostChannel {
  files: Inherited[];
  mux: Mux;
  close(): Promise<void>;
}

/** Open a channel whose connections from the sandbox `accept` answers (a socket on the host, or
 *  null: closed at once). Nothing in the sandbox sees what the socket reaches. */
export function openChannel(accept: (service: string) => MuxSocket | null): HostChannel {
  const [down, up] = heldFifos(2);
  // Each FIFO is held read-write (opening never blocks), so each stream must use one
  // direction only: reading from `down` would take frames meant for the sandbox.
  const toSandbox = new Socket({ fd: down.fd, readable: false, writable: true });
  const fromSandbox = new Socket({ fd: up.fd, readable: true, writable: false });
  toSandbox.on("error", () => fromSandbox.destroy()); // EPIPE cannot happen (deepcode holds a reader); any other failure ends the channel
  fromSandbox.unref();
  toSandbox.unref();
  const mux = createMux(fromSandbox, toSandbox, accept, 2);
  return {
    files: [
      { fd: CHANNEL_IN_FD, path: down.path },
      { fd: CHANNEL_OUT_FD, path: up.path, write: true },
    ],
    mux,
    close() {
      mux.close();
      const closed = [fromSandbox, toSandbox].map((s) => (s.closed ? Promise.resolve() : new Promise<void>((r) => s.once("close", () => r()))));
      fromSandbox.destroy();
      toSandbox.destroy();
      return Promise.all(closed).then(() => undefined);
    },
  };
}
