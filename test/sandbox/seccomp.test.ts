// The seccomp filter bubblewrap loads for every sandboxed command (mods/sandbox/seccomp.ts):
// no unix socket can be created inside — python3 and node get EPERM, also with the domain's
// high bits set, through x32's call numbers and as a datagram pair — and io_uring (which would
// create sockets past the filter) is not there; while what programs need keeps working:
// socketpair, pipes to children (node, python's subprocess), git, node -e. On an architecture
// deepcode has no filter for, the sandbox still runs, says why, and hides host sockets by path
// as before. Real bash, python3 and node in real bubblewrap; the filter's own table (i386, ARM,
// aarch64 calls this machine cannot run) is read the way the kernel runs it.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sandboxStatus } from "../../mods/sandbox/index.js";
import { sandboxArgs } from "../../mods/sandbox/bwrap.js";
import { AUDIT_ARCH, runProgram, SECCOMP_ACTIONS, seccompProgram } from "../../mods/sandbox/seccomp.js";
import { findOnPath } from "../../src/lib/path-lookup.js";
import { gitIn, loadSandbox } from "./harness.js";

const status = sandboxStatus();
const filtered = status.active && status.seccomp !== null;
const python = findOnPath("python3", process.env.PATH ?? "");

let base: string;
let root: string;
let home: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "deepcode-seccomp-")));
  root = join(base, "ws");
  home = join(base, "home");
  mkdirSync(root);
  mkdirSync(home);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const box = (network?: boolean) => loadSandbox({ root, home, deepcodeHome: join(base, "dc-home"), network });

/** Raw calls through libc's syscall(): each prints "<label> ok" or "<label> <errno name>". */
const RAW_CALLS = `import ctypes, errno, socket
libc = ctypes.CDLL(None, use_errno=True)
def call(label, nr, *args):
    r = libc.syscall(ctypes.c_long(nr), *[ctypes.c_long(a) for a in args])
    print(label, "ok" if r >= 0 else errno.errorcode[ctypes.get_errno()])
def made(label, f):
    try:
        f()
        print(label, "ok")
    except OSError as e:
        print(label, errno.errorcode[e.errno])
made("af_unix", lambda: socket.socket(socket.AF_UNIX))
made("dgram_pair", lambda: socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM))
made("stream_pair", lambda: socket.socketpair())
made("inet", lambda: socket.socket(socket.AF_INET))
SOCKET = {"x86_64": 41, "aarch64": 198}[__import__("platform").machine()]
call("high_bits", SOCKET, 0x100000001, socket.SOCK_STREAM, 0)
if SOCKET == 41:
    call("x32", 0x40000000 | 41, socket.AF_UNIX, socket.SOCK_STREAM, 0)
params = ctypes.create_string_buffer(120)
call("io_uring", 425, 1, ctypes.addressof(params))
`;

describe.skipIf(!filtered || !python)("no unix socket can be created in the sandbox (real bwrap, seccomp)", () => {
  it("refuses socket(AF_UNIX) in every spelling with EPERM, and io_uring with ENOSYS; TCP sockets and stream pairs are made", async () => {
    writeFileSync(join(root, "calls.py"), RAW_CALLS);
    // Outside, the kernel makes a unix socket from a domain with high bits (it reads an int):
    // the filter must not be fooled by them.
    expect(execFileSync("python3", [join(root, "calls.py")], { encoding: "utf8" })).toMatch(/^high_bits ok$/m);
    const r = await box().run("python3 calls.py");
    const lines = Object.fromEntries(r.stdout.trim().split("\n").map((l) => l.split(" ") as [string, string]));
    expect(lines, r.stdout + r.stderr).toMatchObject({ af_unix: "EPERM", dgram_pair: "EPERM", high_bits: "EPERM", io_uring: "ENOSYS", stream_pair: "ok", inet: "ok" });
    if (process.arch === "x64") expect(lines.x32).toBe("EPERM");
  });

  it("refuses node's unix connections with EPERM, also with sandbox.network true", async () => {
    for (const network of [false, true]) {
      const r = await box(network).run(`node -e 'require("net").connect(process.cwd() + "/none.sock").on("error", (e) => console.log("node", e.code))'`);
      expect(r.stdout, `network ${network}: ${r.stderr}`).toBe("node EPERM\n");
    }
  });

  it("keeps what programs need working: socketpair, pipes to children in python and node, node -e, git", async () => {
    gitIn(root, home, "init", "-q");
    writeFileSync(join(root, "a.txt"), "a\n");
    const r = await box().run(
      [
        `python3 -c 'import socket, subprocess; a, b = socket.socketpair(); a.sendall(b"pair"); print(b.recv(4).decode()); subprocess.run(["true"], check=True); print(subprocess.run(["echo", "sub"], capture_output=True, text=True).stdout.strip())'`,
        `node -e 'const cp = require("child_process"); console.log(cp.execFileSync("echo", ["sync"]).toString().trim()); cp.spawn("echo", ["async"], { stdio: ["pipe", "pipe", "pipe"] }).stdout.on("data", (d) => process.stdout.write(d))'`,
        `git status --porcelain`,
      ].join(" && "),
    );
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("pair\nsub\nsync\nasync\n?? a.txt\n");
    expect(r.exitCode).toBe(0);
  });

  it("leaves the command no descriptor of the filter's program (bwrap reads and closes it)", async () => {
    const r = await box().run("ls /proc/$$/fd; true"); // bash's own (not ls's: "; true" keeps bash from exec-ing ls)
    expect(r.stdout.split("\n")).toEqual(expect.arrayContaining(["0", "1", "2"]));
    expect(r.stdout.split("\n")).not.toEqual(expect.arrayContaining(["3"]));
  });

  it("loads the filter in the probe, as commands get it, and says so", () => {
    expect(status.seccomp).toMatch(/^\/proc\/\d+\/fd\/\d+$/);
    expect(status.seccompProblem).toBeNull();
    expect(status.detail).toContain("no unix sockets");
  });
});

describe.skipIf(!status.active)("without a filter for the architecture (real bwrap)", () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

  it("still sandboxes, says why there is no filter, and hides the host sockets it knows by path", async () => {
    const other = sandboxStatus({}, "linux", process.env.PATH ?? "", "riscv64");
    expect(other).toMatchObject({ active: true, seccomp: null });
    expect(other.seccompProblem).toBe("deepcode has no seccomp filter for this architecture (riscv64)");
    expect(other.detail).toContain("known host sockets hidden");
    const sock = join(root, "dev.sock");
    server = createServer();
    await new Promise<void>((r) => server!.listen(sock, () => r()));
    const args = (seccomp: string | null) => sandboxArgs({ bwrap: "bwrap", root, home, deepcodeHome: join(base, "dc-home"), writable: [], network: false, cwd: root, seccomp }).join(" ");
    expect(args(null)).toContain(`--ro-bind /dev/null ${sock}`);
    expect(args(status.seccomp ?? "/proc/self/fd/3")).not.toContain(`/dev/null ${sock}`);
  });
});

describe("the filter's program, read the way the kernel runs it", () => {
  const x64 = seccompProgram("x64")!;
  const arm64 = seccompProgram("arm64")!;
  const { allow, eperm, enosys, kill } = SECCOMP_ACTIONS;
  const run = (p: Buffer, arch: number, nr: number, ...args: number[]) => runProgram(p, { arch, nr, args });

  it("on x86_64: unix sockets and datagram pairs refused (x32 too), others allowed, io_uring absent", () => {
    expect(run(x64, AUDIT_ARCH.x86_64, 41, 1, 1, 0)).toBe(eperm);
    expect(run(x64, AUDIT_ARCH.x86_64, 41, 0x100000001, 1, 0)).toBe(eperm);
    expect(run(x64, AUDIT_ARCH.x86_64, 41, 2, 1, 0)).toBe(allow);
    expect(run(x64, AUDIT_ARCH.x86_64, 41, 10, 2, 0)).toBe(allow);
    expect(run(x64, AUDIT_ARCH.x86_64, 0x40000000 | 41, 1, 1, 0)).toBe(eperm);
    expect(run(x64, AUDIT_ARCH.x86_64, 53, 1, 1, 0)).toBe(allow);
    expect(run(x64, AUDIT_ARCH.x86_64, 53, 1, 5 | 0o2000000, 0)).toBe(allow);
    expect(run(x64, AUDIT_ARCH.x86_64, 53, 1, 2 | 0o2000000 | 0o4000, 0)).toBe(eperm);
    expect(run(x64, AUDIT_ARCH.x86_64, 0x40000000 | 53, 1, 2, 0)).toBe(eperm);
    for (const nr of [425, 426, 427, 0x40000000 | 425]) expect(run(x64, AUDIT_ARCH.x86_64, nr)).toBe(enosys);
    expect(run(x64, AUDIT_ARCH.x86_64, 42, 1)).toBe(allow); // connect: needs a socket first
    expect(run(x64, AUDIT_ARCH.x86_64, 0)).toBe(allow);
  });

  it("on x86_64 for 32-bit binaries: socket and datagram pairs as above, socketcall refused whole", () => {
    expect(run(x64, AUDIT_ARCH.i386, 359, 1, 1, 0)).toBe(eperm);
    expect(run(x64, AUDIT_ARCH.i386, 359, 2, 1, 0)).toBe(allow);
    expect(run(x64, AUDIT_ARCH.i386, 360, 1, 1, 0)).toBe(allow);
    expect(run(x64, AUDIT_ARCH.i386, 360, 1, 2, 0)).toBe(eperm);
    for (const call of [1, 3, 8]) expect(run(x64, AUDIT_ARCH.i386, 102, call, 0)).toBe(eperm);
    expect(run(x64, AUDIT_ARCH.i386, 426)).toBe(enosys);
    expect(run(x64, AUDIT_ARCH.i386, 41, 1)).toBe(allow); // i386's 41 is dup, not socket
  });

  it("on aarch64, and 32-bit ARM binaries on it", () => {
    expect(run(arm64, AUDIT_ARCH.aarch64, 198, 1, 1, 0)).toBe(eperm);
    expect(run(arm64, AUDIT_ARCH.aarch64, 198, 2, 1, 0)).toBe(allow);
    expect(run(arm64, AUDIT_ARCH.aarch64, 199, 1, 1, 0)).toBe(allow);
    expect(run(arm64, AUDIT_ARCH.aarch64, 199, 1, 2, 0)).toBe(eperm);
    expect(run(arm64, AUDIT_ARCH.aarch64, 425)).toBe(enosys);
    expect(run(arm64, AUDIT_ARCH.arm, 281, 1, 1, 0)).toBe(eperm);
    expect(run(arm64, AUDIT_ARCH.arm, 288, 1, 2, 0)).toBe(eperm);
    expect(run(arm64, AUDIT_ARCH.arm, 102, 1)).toBe(eperm);
    expect(run(arm64, AUDIT_ARCH.aarch64, 41, 1)).toBe(allow);
  });

  it("kills a call from an architecture the host's kernel cannot run, and has no program for an unknown host", () => {
    expect(run(x64, AUDIT_ARCH.aarch64, 198, 1)).toBe(kill);
    expect(run(arm64, AUDIT_ARCH.x86_64, 41, 1)).toBe(kill);
    expect(seccompProgram("riscv64")).toBeNull();
  });
});
