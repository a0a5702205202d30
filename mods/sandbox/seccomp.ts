// The seccomp filter every sandboxed command runs under (issue 35, item 4): no process in the
// sandbox can create a unix socket, so no host socket is reachable whatever its name — one
// renamed or hard-linked after `bind`, bound with a relative path, bound after the command
// started, abstract or not. Mounts hide sockets only by the paths deepcode knows of; a socket
// that cannot be created cannot connect anywhere.
//
// The program (classic BPF, as the kernel's `seccomp_data` shows a call: nr at 0, arch at 4,
// args at 16 + 8*i, little-endian on both architectures covered) is built here and handed to
// bubblewrap (`--seccomp FD`), which loads it right before it runs the command:
//   - `socket(AF_UNIX, …)` fails with EPERM (errno, never a kill: a program may go on without).
//     Only the low 32 bits of the domain are compared, as the kernel reads an `int`: a domain
//     with high bits set is still AF_UNIX to it, and still refused here.
//   - `socketpair` stays allowed for streams and sequenced packets: node, python's subprocess and
//     git use such pairs for their own pipes, and their ends are connected to each other only
//     (`connect` says EISCONN; a seqpacket end ignores a `sendto` address). A *datagram* pair
//     (type & 0xf == SOCK_DGRAM) is refused with EPERM: its end can `connect` or `sendto` any
//     datagram socket by path (a logger, systemd's notify socket). Few programs make one.
//   - io_uring (`io_uring_setup`, `_enter`, `_register`) fails with ENOSYS: its IORING_OP_SOCKET
//     creates sockets without passing the filter. Programs that try it (libuv) fall back.
//   - x86_64: the x32 ABI (the same arch value, nr with bit 0x40000000 set) is covered by
//     masking that bit first: x32's numbers for these calls are x86_64's. 32-bit i386 binaries
//     (arch I386): `socket` (359) and `socketpair` (360) as above, and `socketcall` (102)
//     refused whole with EPERM — its arguments are behind a pointer the filter cannot read, so
//     it cannot tell a unix socket from another. The cost: a 32-bit program that makes its
//     socket calls through socketcall (old glibc, Go's 386 port) has no sockets, TCP included.
//   - aarch64 (`socket` 198, `socketpair` 199), and 32-bit ARM binaries on it (arch ARM, EABI:
//     281, 288; ARM's `socketcall`, OABI only, refused like i386's).
//   - an architecture other than those the host's kernel can run kills the process: it cannot
//     happen on these kernels, and letting it through would be a way around the filter.
// On any other host architecture there is no filter (`seccompProgram` returns null, the mod
// warns once): today's mounts and the private network namespace are all there is.
//
// The program is written once per process to a file that is held open and named nowhere
// (`seccompFilter`, inherit.ts); the probe (bwrap.ts) loads it the way commands get it.

import { heldFile } from "./inherit.js";

const LD_W_ABS = 0x20; // BPF_LD | BPF_W | BPF_ABS
const AND_K = 0x54; // BPF_ALU | BPF_AND | BPF_K
const JEQ_K = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const RET_K = 0x06; // BPF_RET | BPF_K

const RET_ALLOW = 0x7fff0000;
const RET_KILL_PROCESS = 0x80000000;
const RET_ERRNO = 0x00050000;
const EPERM = 1;
const ENOSYS = 38;

const AUDIT_ARCH_X86_64 = 0xc000003e;
const AUDIT_ARCH_I386 = 0x40000003;
const AUDIT_ARCH_AARCH64 = 0xc00000b7;
const AUDIT_ARCH_ARM = 0x40000028;
const X32_SYSCALL_BIT = 0x40000000;

const AF_UNIX = 1;
const SOCK_DGRAM = 2;
const SOCK_TYPE_MASK = 0xf; // the type without SOCK_NONBLOCK / SOCK_CLOEXEC
const IO_URING = [425, 426, 427]; // the same numbers on every architecture here

/** One architecture's calls as seen by the filter. */
interface Abi {
  arch: number;
  socket: number;
  socketpair: number;
  socketcall?: number;
  /** Bits cleared from nr before comparing (x32). */
  mask?: number;
}

/** The ABIs a kernel of each host architecture (node's `process.arch`) can run. */
export const ABIS: Readonly<Record<string, readonly Abi[]>> = {
  x64: [
    { arch: AUDIT_ARCH_X86_64, socket: 41, socketpair: 53, mask: ~X32_SYSCALL_BIT >>> 0 },
    { arch: AUDIT_ARCH_I386, socket: 359, socketpair: 360, socketcall: 102 },
  ],
  arm64: [
    { arch: AUDIT_ARCH_AARCH64, socket: 198, socketpair: 199 },
    { arch: AUDIT_ARCH_ARM, socket: 281, socketpair: 288, socketcall: 102 },
  ],
};

type Label = string;
/** An instruction whose jump targets are still labels. */
type Op = { code: number; k: number; jt?: Label; jf?: Label } | { label: Label };

/** Lay the instructions out as `struct sock_filter` (u16 code, u8 jt, u8 jf, u32 k), resolving
 *  each label to a forward offset (classic BPF only jumps forward, at most 255). */
function assemble(ops: readonly Op[]): Buffer {
  const at = new Map<Label, number>();
  let n = 0;
  for (const op of ops) {
    if ("label" in op) at.set(op.label, n);
    else n++;
  }
  const out = Buffer.alloc(n * 8);
  let i = 0;
  for (const op of ops) {
    if ("label" in op) continue;
    const rel = (l: Label | undefined): number => {
      if (l === undefined) return 0;
      const to = at.get(l);
      if (to === undefined || to <= i || to - i - 1 > 255) throw new Error(`seccomp: bad jump to ${l} from ${i}`);
      return to - i - 1;
    };
    out.writeUInt16LE(op.code, i * 8);
    out.writeUInt8(rel(op.jt), i * 8 + 2);
    out.writeUInt8(rel(op.jf), i * 8 + 3);
    out.writeUInt32LE(op.k >>> 0, i * 8 + 4);
    i++;
  }
  return out;
}

/** The filter for a host architecture (node's `process.arch`), or null where deepcode does not
 *  know its calls' numbers. */
export function seccompProgram(hostArch: string = process.arch): Buffer | null {
  const abis = ABIS[hostArch];
  if (!abis) return null;
  const ops: Op[] = [{ code: LD_W_ABS, k: 4 }];
  abis.forEach((a, i) => ops.push({ code: JEQ_K, k: a.arch, jt: `abi${i}` }));
  ops.push({ code: RET_K, k: RET_KILL_PROCESS });
  abis.forEach((a, i) => {
    ops.push({ label: `abi${i}` }, { code: LD_W_ABS, k: 0 });
    if (a.mask !== undefined) ops.push({ code: AND_K, k: a.mask });
    ops.push({ code: JEQ_K, k: a.socket, jt: "domain" }, { code: JEQ_K, k: a.socketpair, jt: "type" });
    if (a.socketcall !== undefined) ops.push({ code: JEQ_K, k: a.socketcall, jt: "eperm" });
    for (const nr of IO_URING) ops.push({ code: JEQ_K, k: nr, jt: "nosys" });
    ops.push({ code: RET_K, k: RET_ALLOW });
  });
  // socket(domain, …): the low word of args[0].
  ops.push({ label: "domain" }, { code: LD_W_ABS, k: 16 }, { code: JEQ_K, k: AF_UNIX, jt: "eperm" }, { code: RET_K, k: RET_ALLOW });
  // socketpair(domain, type, …): the low word of args[1], without its flags.
  ops.push({ label: "type" }, { code: LD_W_ABS, k: 24 }, { code: AND_K, k: SOCK_TYPE_MASK }, { code: JEQ_K, k: SOCK_DGRAM, jt: "eperm" }, { code: RET_K, k: RET_ALLOW });
  ops.push({ label: "eperm" }, { code: RET_K, k: RET_ERRNO | EPERM });
  ops.push({ label: "nosys" }, { code: RET_K, k: RET_ERRNO | ENOSYS });
  return assemble(ops);
}

/** What the program answers for one call, read the way the kernel runs it (tests; a check that
 *  the layout above means what it says). Returns the raw 32-bit action. */
export function runProgram(program: Buffer, call: { arch: number; nr: number; args?: readonly number[] }): number {
  const data = Buffer.alloc(64);
  data.writeUInt32LE(call.nr >>> 0, 0);
  data.writeUInt32LE(call.arch >>> 0, 4);
  (call.args ?? []).forEach((a, i) => data.writeBigUInt64LE(BigInt.asUintN(64, BigInt(a)), 16 + 8 * i));
  let acc = 0;
  for (let pc = 0; pc * 8 < program.length; pc++) {
    const code = program.readUInt16LE(pc * 8);
    const jt = program.readUInt8(pc * 8 + 2);
    const jf = program.readUInt8(pc * 8 + 3);
    const k = program.readUInt32LE(pc * 8 + 4);
    if (code === LD_W_ABS) acc = data.readUInt32LE(k);
    else if (code === AND_K) acc = (acc & k) >>> 0;
    else if (code === JEQ_K) pc += acc === k ? jt : jf;
    else if (code === RET_K) return k;
    else throw new Error(`seccomp: unknown instruction ${code}`);
  }
  throw new Error("seccomp: the program ran off its end");
}

export const SECCOMP_ACTIONS = { allow: RET_ALLOW, kill: RET_KILL_PROCESS, eperm: RET_ERRNO | EPERM, enosys: RET_ERRNO | ENOSYS } as const;
export const AUDIT_ARCH = { x86_64: AUDIT_ARCH_X86_64, i386: AUDIT_ARCH_I386, aarch64: AUDIT_ARCH_AARCH64, arm: AUDIT_ARCH_ARM } as const;

let held: { path: string } | { problem: string } | undefined;

/** The program for this host, held open by this process for its whole life (inherit.ts): the
 *  path the shell opens for bwrap's `--seccomp 3`, or why there is none. Made once per process. */
export function seccompFilter(hostArch: string = process.arch): { path: string } | { problem: string } {
  if (hostArch !== process.arch) return filterFor(hostArch);
  held ??= filterFor(hostArch);
  return held;
}

function filterFor(hostArch: string): { path: string } | { problem: string } {
  const program = seccompProgram(hostArch);
  if (!program) return { problem: `deepcode has no seccomp filter for this architecture (${hostArch})` };
  try {
    return { path: heldFile(program) };
  } catch (err) {
    return { problem: `cannot write the seccomp filter: ${(err as Error).message}` };
  }
}
