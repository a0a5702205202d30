// The stdio transport: the server is a child process speaking line-delimited JSON-RPC on its
// stdin and stdout. It runs in a process group of its own (detached), so ending it ends what
// it started too; the group is ended when deepcode closes the server, and at the latest when
// deepcode exits. What it writes on stderr goes to the server's log (a sink given by the
// manager) and the last lines are kept for `/mcp`.

import { spawn, type ChildProcess } from "node:child_process";
import { homedir } from "node:os";
import { isAbsolute } from "node:path";
import type { ProcessLaunch, ProcessLaunchRequest } from "../../src/contract/index.js";
import { namedInArgs } from "../../src/lib/named-paths.js";
import type { ServerConfig } from "./config.js";
import type { JsonObject, Transport, TransportHandlers } from "./jsonrpc.js";

export interface StdioOptions {
  command: string;
  args: string[];
  /** The whole environment of the child (the manager composes it). */
  env: Record<string, string>;
  cwd: string;
  /** Each line the server writes on stderr. */
  stderr(line: string): void;
  /** How it is started: the chain's `process.launch` (the sandbox wraps it there); without one
   *  (tests) it starts as it is. The request's `name` is the server's. */
  launch?(req: ProcessLaunchRequest): Promise<ProcessLaunch>;
  name?: string;
  /** Files outside the workspace its command and arguments name (shown read-only in a sandbox). */
  readable?: string[];
  /** `"sandbox": false` in the person's own configuration. */
  unsandboxed?: boolean;
}

/** After stdin closes, how long a server may take to exit before its group gets SIGTERM,
 *  then SIGKILL. */
const EXIT_GRACE_MS = 500;
const KILL_GRACE_MS = 1000;

/** Where a `"sandbox": false` on a server is honoured: the person's own configuration (their
 *  ~/.claude.json, user or per-project, and a `--mcp-config` they passed), not a project's file. */
const OWN_SCOPES: ReadonlySet<ServerConfig["scope"]> = new Set(["user", "local", "flag"]);

/** The transport for a configured stdio server, started through `launch` (process.launch). */
export function stdioTransport(c: ServerConfig, o: { root: string; launch?: StdioOptions["launch"]; stderr(line: string): void }): StdioTransport {
  const args = c.args ?? [];
  const home = process.env.HOME && isAbsolute(process.env.HOME) ? process.env.HOME : homedir();
  return new StdioTransport({
    command: c.command ?? "",
    args,
    env: c.env ?? {},
    cwd: c.cwd ?? o.root,
    stderr: o.stderr,
    name: c.name,
    ...(o.launch ? { launch: o.launch } : {}),
    readable: namedInArgs([c.command ?? "", ...args, ...Object.values(c.env ?? {})], o.root, home),
    unsandboxed: c.raw.sandbox === false && OWN_SCOPES.has(c.scope),
  });
}

const alive = new Set<ChildProcess>();
let exitHook = false;

/** At exit only synchronous calls run: SIGKILL every group still alive. */
function killAll(): void {
  for (const c of alive) killGroup(c, "SIGKILL");
}

function killGroup(c: ChildProcess, signal: NodeJS.Signals): void {
  if (c.pid === undefined || c.exitCode !== null || c.signalCode !== null) return;
  try {
    process.kill(-c.pid, signal);
  } catch {
    // The group is gone already (ESRCH): nothing left to end.
  }
}

/**
 * Splits a stream into lines in time linear in its length: each chunk is searched once, from its
 * own start, and a line's pieces are joined once, when its end arrives. (Appending to one string
 * and searching it from the start on every chunk was quadratic: a 20 MB line took 86 s, a 60 MB
 * one never finished; `npm run bench -- mcp-stdio`.) A trailing `\r` is dropped.
 */
export class LineSplitter {
  private pieces: string[] = [];

  push(chunk: string, line: (text: string) => void): void {
    let from = 0;
    let nl: number;
    while ((nl = chunk.indexOf("\n", from)) >= 0) {
      const piece = chunk.slice(from, nl);
      const whole = this.pieces.length ? this.pieces.join("") + piece : piece;
      this.pieces = [];
      from = nl + 1;
      line(whole.endsWith("\r") ? whole.slice(0, -1) : whole);
    }
    if (from < chunk.length) this.pieces.push(from === 0 ? chunk : chunk.slice(from));
  }

  /** What came after the last line end (the stream ended mid-line). */
  rest(): string {
    const r = this.pieces.join("");
    this.pieces = [];
    return r;
  }
}

export class StdioTransport implements Transport {
  private child?: ChildProcess;
  private closing = false;
  private readonly out = new LineSplitter();

  constructor(private readonly o: StdioOptions) {}

  start(h: TransportHandlers): Promise<void> {
    if (!exitHook) {
      exitHook = true;
      process.on("exit", killAll);
    }
    const o = this.o;
    const prepared: Promise<ProcessLaunch> = o.launch
      ? o.launch({ argv: [o.command, ...o.args], cwd: o.cwd, env: o.env, clearEnv: true, purpose: "mcp", name: o.name ?? o.command, readable: o.readable ?? [], ...(o.unsandboxed ? { unsandboxed: true } : {}) })
      : Promise.resolve({ argv: [o.command, ...o.args], env: o.env, ended: () => [] });
    return prepared.then((launch) => this.spawn(launch, h));
  }

  private spawn(launch: ProcessLaunch, h: TransportHandlers): Promise<void> {
    return new Promise((resolve, reject) => {
      let started = false;
      let ended = false;
      // The sandbox's undo for what the server did to protected paths, once, when it is gone.
      const end = (): void => {
        if (ended) return;
        ended = true;
        for (const line of launch.ended()) this.o.stderr(`[deepcode sandbox: ${line}]`);
      };
      const child = spawn(launch.argv[0], launch.argv.slice(1), { cwd: this.o.cwd, env: launch.env, stdio: ["pipe", "pipe", "pipe"], detached: true, windowsHide: true });
      this.child = child;
      child.stdin?.on("error", () => undefined); // EPIPE: the server exited; `exit` reports it
      child.stdout?.setEncoding("utf8").on("data", (d: string) => this.lines(d, h.message, h.garbled));
      const err = new LineSplitter();
      child.stderr?.setEncoding("utf8").on("data", (d: string) => err.push(d, (l) => this.o.stderr(l)));
      child.once("spawn", () => {
        started = true;
        alive.add(child);
        this.unref();
        resolve();
      });
      child.once("error", (err: NodeJS.ErrnoException) => {
        alive.delete(child);
        end();
        const why = err.code === "ENOENT" ? `command not found: ${this.o.command}` : `cannot start ${this.o.command}: ${err.message}`;
        if (!started) reject(new Error(why));
        else if (!this.closing) h.closed(why);
      });
      child.once("exit", (code, signal) => {
        alive.delete(child);
        const errRest = err.rest();
        if (errRest) this.o.stderr(errRest);
        killGroup(child, "SIGTERM"); // what it left running in its group goes with it
        end();
        if (started && !this.closing) h.closed(signal ? `the server process was killed (${signal})` : `the server process exited with code ${code}`);
      });
    });
  }

  send(m: JsonObject): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed) return Promise.reject(new Error("the server process is not running"));
    return new Promise((resolve, reject) => stdin.write(`${JSON.stringify(m)}\n`, (err) => (err ? reject(err) : resolve())));
  }

  close(): Promise<void> {
    this.closing = true;
    const c = this.child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      const term = setTimeout(() => killGroup(c, "SIGTERM"), EXIT_GRACE_MS);
      const kill = setTimeout(() => killGroup(c, "SIGKILL"), EXIT_GRACE_MS + KILL_GRACE_MS);
      // Closing is awaited (the session's end waits for it), so it holds the process open
      // until the server exited or was killed.
      this.ref();
      const done = (): void => {
        clearTimeout(term);
        clearTimeout(kill);
        resolve();
      };
      c.once("exit", done);
      c.stdin?.end(); // the spec's polite way: close its input and let it exit
    });
  }

  ref(): void {
    this.child?.ref();
    for (const s of [this.child?.stdout, this.child?.stdin, this.child?.stderr]) (s as { ref?: () => void } | null | undefined)?.ref?.();
  }

  unref(): void {
    this.child?.unref();
    for (const s of [this.child?.stdout, this.child?.stdin, this.child?.stderr]) (s as { unref?: () => void } | null | undefined)?.unref?.();
  }

  /** The child's process id (its group id too). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  private lines(d: string, message: (m: unknown) => void, garbled?: (what: string) => void): void {
    this.out.push(d, (text) => {
      const line = text.trim();
      if (!line) return;
      let m: unknown;
      try {
        m = JSON.parse(line);
      } catch {
        this.o.stderr(`(not JSON on stdout) ${line.slice(0, 200)}`);
        // A line that starts like a message but does not parse was meant as one: a garbled
        // reply (waiting calls fail now). Any other text is a server's stray log line.
        if (line.startsWith("{") || line.startsWith("[")) garbled?.(line);
        return;
      }
      message(m);
    });
  }
}
