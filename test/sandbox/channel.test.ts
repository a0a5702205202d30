// The channel that carries the allowedDomains proxy's connections into the sandbox
// (mods/sandbox/channel.ts), its two ends joined by in-process pipes: connections opened on
// one end arrive on the other with their bytes in order both ways, half closes and closes pass,
// a service the other end does not offer is closed at once, a large transfer arrives whole,
// and garbage on the channel ends it. The connections are real sockets (loopback listeners of
// the test's own). (With real bubblewrap: network-proxy.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PassThrough } from "node:stream";
import { connect, createServer, type Server, type Socket } from "node:net";
import { createMux, type Mux } from "../../mods/sandbox/channel.js";

/** Where the sandbox's clients connect from (a pair per call); the host's services. */
let pairs: Server;
let echo: Server;
let sink: Server;
let nextPair: ((s: Socket) => void) | undefined;
let nextSink: ((s: Socket) => void) | undefined;

/** Every socket of the test, destroyed at the end (half-open ones would keep a listener open). */
const sockets: Socket[] = [];
const track = (s: Socket): Socket => (sockets.push(s), s);
const portOf = (s: Server): number => (s.address() as { port: number }).port;
const listen = (s: Server): Promise<void> => new Promise((r) => s.listen(0, "127.0.0.1", () => r()));

beforeAll(async () => {
  pairs = createServer({ allowHalfOpen: true }, (s) => nextPair?.(track(s)));
  // Answers in capitals, and ends when its client does.
  echo = createServer({ allowHalfOpen: true }, (s) => {
    track(s);
    s.on("data", (d: Buffer) => s.write(d.toString().toUpperCase()));
    s.on("end", () => s.end());
  });
  sink = createServer({ allowHalfOpen: true }, (s) => nextSink?.(track(s)));
  await Promise.all([listen(pairs), listen(echo), listen(sink)]);
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await Promise.all([pairs, echo, sink].map((s) => new Promise<void>((r) => s.close(() => r()))));
});

/** Two connected sockets: a client's and the one the sandbox's end carries (made one at a time). */
async function socketPair(): Promise<[Socket, Socket]> {
  const far = new Promise<Socket>((r) => (nextPair = r));
  const near = track(connect({ port: portOf(pairs), host: "127.0.0.1", allowHalfOpen: true }));
  return [near, await far];
}

/** Everything a socket gives until it ends. */
function collect(s: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    s.on("data", (d: Buffer) => (text += d.toString()));
    s.on("end", () => resolve(text));
  });
}

/** A sandbox end (odd ids) and a host end (even ids) over two pipes; the host offers "echo"
 *  and "sink", as deepcode's end offers "proxy". */
function channel(): { sandbox: Mux; ended: string[]; toHost: PassThrough } {
  const toHost = new PassThrough();
  const toSandbox = new PassThrough();
  const ended: string[] = [];
  const services: Record<string, Server> = { echo, sink };
  createMux(
    toHost,
    toSandbox,
    (service) => (services[service] ? track(connect({ port: portOf(services[service]), host: "127.0.0.1", allowHalfOpen: true })) : null),
    2,
    (why) => ended.push(`host: ${why}`),
  );
  const sandbox = createMux(toSandbox, toHost, () => null, 1, (why) => ended.push(`sandbox: ${why}`));
  return { sandbox, ended, toHost };
}

describe("the allowedDomains channel", () => {
  it("carries several connections at once, each with its own bytes, and passes their half close", async () => {
    const { sandbox } = channel();
    const clients: Socket[] = [];
    for (let i = 0; i < 3; i++) {
      const [client, carried] = await socketPair();
      sandbox.open("echo", carried);
      clients.push(client);
    }
    const replies = clients.map(collect);
    ["one", "two", "three"].forEach((w, i) => clients[i].end(w));
    expect(await Promise.all(replies)).toEqual(["ONE", "TWO", "THREE"]);
  });

  it("delivers a large transfer whole and in order", async () => {
    const { sandbox } = channel();
    const arrived = new Promise<Socket>((r) => (nextSink = r));
    const [client, carried] = await socketPair();
    sandbox.open("sink", carried);
    const big = Buffer.alloc(3 * 1024 * 1024 + 17);
    for (let i = 0; i < big.length; i++) big[i] = i % 251;
    client.end(big);
    const far = await arrived;
    const got = await new Promise<Buffer>((resolve) => {
      const parts: Buffer[] = [];
      far.on("data", (d: Buffer) => parts.push(d));
      far.on("end", () => resolve(Buffer.concat(parts)));
    });
    expect(got.equals(big)).toBe(true);
  });

  it("closes at once a connection to a service the other end does not offer", async () => {
    const { sandbox } = channel();
    const [client, carried] = await socketPair();
    const reply = collect(client);
    sandbox.open("tcp:22", carried);
    client.write("hello");
    expect(await reply).toBe("");
  });

  it("ends the channel, and every connection on it, when something that is not a frame arrives", async () => {
    const { sandbox, ended, toHost } = channel();
    const arrived = new Promise<Socket>((r) => (nextSink = r));
    const [client, carried] = await socketPair();
    client.on("error", () => undefined); // a reset or an end, depending on timing: over either way
    const over = new Promise<void>((r) => (client.on("end", () => r()), client.on("close", () => r())));
    sandbox.open("sink", carried);
    const far = await arrived;
    far.on("error", () => undefined); // as above
    const farOver = new Promise<void>((r) => (far.on("end", () => r()), far.on("close", () => r())));
    far.resume();
    toHost.write(Buffer.from([9, 0, 0, 0, 1, 0, 0, 0, 0]));
    await farOver;
    expect(ended).toContain("host: the channel carried something that is not a frame");
    sandbox.close();
    client.resume();
    await over;
  });
});
