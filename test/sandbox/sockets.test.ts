// Issue 21, hole 2, and issue 35, item 4: no unix socket a process outside listens on is
// connectable from inside the sandbox, whatever its name — one in the project, one in the home
// folder, one elsewhere on the file system, the one SSH_AUTH_SOCK names, an abstract one, and
// the red team's: renamed after bind, hard-linked after bind, bound with a relative path (none
// of which the kernel's table names where they are) — and the variables naming agents and
// buses are not passed. Judged by effect: the listeners the test starts count the connections
// they accept, and each answers a client outside first. Real bash, node and python3 in real
// bubblewrap; skipped where bubblewrap cannot run.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { existsSync, linkSync, mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { sandboxStatus } from "../../mods/sandbox/index.js";
import { boundSockets } from "../../mods/sandbox/sockets.js";
import { findOnPath } from "../../src/lib/path-lookup.js";
import { loadSandbox } from "./harness.js";

const available = sandboxStatus().active;
const python = findOnPath("python3", process.env.PATH ?? "");

let base: string;
let root: string;
let home: string;
const servers: Server[] = [];
let accepted: string[];

/** A listener at `path` (bound relative to `cwd` when given: the kernel's table then holds
 *  the relative name); it records `name` for each connection it accepts. */
function listen(path: string, name: string = path, cwd?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const s = createServer((c) => {
      accepted.push(name);
      c.end("HELLO-FROM-OUTSIDE\n");
    });
    s.on("error", reject);
    const back = process.cwd();
    if (cwd) process.chdir(cwd);
    try {
      s.listen(path, () => resolve()); // the bind itself happens now, in this directory
    } finally {
      process.chdir(back);
    }
    servers.push(s);
  });
}

/** Clients for a list of socket addresses: each prints "HELLO-FROM-OUTSIDE" or why not. */
const nodeClient = (list: string[]): string =>
  `node -e 'const net=require("net");let n=0;for(const p of ${JSON.stringify(list)}){const c=net.connect(p);c.on("data",d=>process.stdout.write(d));c.on("error",e=>console.log("refused",e.code));c.on("close",()=>{if(++n===${list.length})process.exit(0)})}'`;
// Node 20 binds an abstract name padded with NULs to the whole of sun_path, Node 22 and later
// bind the bare name: python tries the bare name, then the padded one, and prints one line.
const PY_CLIENT = `import socket, sys, json
for p in json.loads(sys.argv[1]):
    forms = [p, p.ljust(108, "\\0")] if p.startswith("\\0") else [p]
    line = None
    for form in forms:
        try:
            s = socket.socket(socket.AF_UNIX)
            s.connect(form)
            line = s.recv(100).decode().strip()
            break
        except OSError as e:
            line = "refused " + e.strerror
    print(line)
`;

beforeEach(() => {
  // Not under /tmp: the sandbox's /tmp is empty anyway, the point is a socket anywhere else.
  base = realpathSync(mkdtempSync(join(existsSync("/var/tmp") ? "/var/tmp" : process.cwd(), "deepcode-sock-")));
  root = join(base, "ws");
  home = join(base, "home");
  mkdirSync(join(root, ".devserver"), { recursive: true });
  mkdirSync(join(home, ".emacs.d"), { recursive: true });
  mkdirSync(join(base, "var", "agent"), { recursive: true });
  accepted = [];
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(() => r(undefined)))));
  rmSync(base, { recursive: true, force: true });
});

describe.skipIf(!available)("unix sockets outside are not connectable from the sandbox (real bwrap)", () => {
  it("refuses the project's, the home folder's, an agent's and an abstract socket; agent variables are gone", async () => {
    const abstract = `\0deepcode-test-${process.pid}`;
    const paths = [join(root, ".devserver", "s.sock"), join(home, ".emacs.d", "server"), join(base, "var", "agent", "ssh.sock")];
    for (const p of [...paths, abstract]) await listen(p);
    const box = loadSandbox({
      root,
      home,
      deepcodeHome: join(base, "dc-home"),
      env: { SSH_AUTH_SOCK: paths[2], DBUS_SESSION_BUS_ADDRESS: `unix:path=${paths[1]}`, XDG_RUNTIME_DIR: join(base, "var") },
    });
    // Outside, every one of them answers (the test's own check that the listeners work).
    const script = nodeClient;
    const r = await box.run(`${script([...paths, abstract])}; echo "agent=[$SSH_AUTH_SOCK] bus=[$DBUS_SESSION_BUS_ADDRESS] run=[$XDG_RUNTIME_DIR]"`);
    expect(r.stdout).not.toContain("HELLO-FROM-OUTSIDE");
    expect(accepted).toEqual([]);
    expect(r.stdout).toContain("agent=[] bus=[] run=[]");
    // The project's socket is still there for the person, and still answers outside.
    // (Asynchronously: the listener runs in this process.)
    const outside = await new Promise<string>((resolve) => execFile("bash", ["-c", script([paths[0]])], (_e, out) => resolve(out)));
    expect(outside).toContain("HELLO-FROM-OUTSIDE");
    expect(accepted).toEqual([paths[0]]);
  });

  it.skipIf(!python)("refuses sockets renamed or hard-linked after bind, bound with a relative path, plain and abstract, to node and python3, with and without network", async () => {
    await listen(join(root, "plain.sock"), "plain");
    await listen(join(root, "before-rename.sock"), "renamed");
    renameSync(join(root, "before-rename.sock"), join(root, "renamed.sock"));
    await listen(join(root, "original.sock"), "linked");
    linkSync(join(root, "original.sock"), join(root, "link.sock"));
    await listen("relative.sock", "relative", join(root, ".devserver"));
    await listen(`\0deepcode-test-${process.pid}-abstract`, "abstract");
    const targets = ["plain.sock", "renamed.sock", "link.sock", ".devserver/relative.sock"].map((p) => join(root, p)).concat(`\0deepcode-test-${process.pid}-abstract`);
    writeFileSync(join(root, "client.py"), PY_CLIENT);
    const python = `python3 client.py '${JSON.stringify(targets)}'`;
    // Outside, each one answers: five listeners, five connections.
    const outside = await new Promise<string>((resolve) => execFile("bash", ["-c", python], { cwd: root }, (_e, out) => resolve(out)));
    expect(outside.match(/HELLO-FROM-OUTSIDE/g), outside).toHaveLength(5);
    expect([...accepted].sort()).toEqual(["abstract", "linked", "plain", "relative", "renamed"]);
    accepted.length = 0;
    for (const network of [false, true]) {
      const box = loadSandbox({ root, home, deepcodeHome: join(base, "dc-home"), network });
      const r = await box.run(`${nodeClient(targets)}; ${python}`);
      expect(r.stdout, `network ${network}`).not.toContain("HELLO-FROM-OUTSIDE");
      expect(r.stdout.match(/^refused (EPERM|Operation not permitted)$/gm), r.stdout + r.stderr).toHaveLength(10);
    }
    expect(accepted).toEqual([]);
  });

  it("reads the kernel's socket table: paths only, abstract names left out", () => {
    const table = [
      "Num       RefCount Protocol Flags    Type St Inode Path",
      "0000000000000000: 00000002 00000000 00010000 0001 01 4631128 /run/user/1000/bus",
      "0000000000000000: 00000002 00000000 00010000 0001 01 4631129 @/tmp/.X11-unix/X0",
      "0000000000000000: 00000003 00000000 00000000 0001 03 4631130",
      "0000000000000000: 00000002 00000000 00010000 0001 01 4631131 /home/me/my project/s.sock",
    ].join("\n");
    expect(boundSockets(table)).toEqual(["/run/user/1000/bus", "/home/me/my project/s.sock"]);
  });
});
