// Issue 21, hole 2: no unix socket a process outside listens on is connectable from inside the
// sandbox — one in the project, one in the home folder, one elsewhere on the file system, the
// one SSH_AUTH_SOCK names, an abstract one — and the variables naming agents and buses are not
// passed. Judged by effect: the listeners the test starts count the connections they accept.
// Real bash and node in real bubblewrap; skipped where bubblewrap cannot run.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { sandboxStatus } from "../../mods/sandbox/index.js";
import { boundSockets } from "../../mods/sandbox/sockets.js";
import { loadSandbox } from "./harness.js";

const available = sandboxStatus().active;

let base: string;
let root: string;
let home: string;
const servers: Server[] = [];
let accepted: string[];

function listen(path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const s = createServer((c) => {
      accepted.push(path);
      c.end("HELLO-FROM-OUTSIDE\n");
    });
    s.on("error", reject);
    s.listen(path, () => resolve());
    servers.push(s);
  });
}

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
    const script = (list: string[]): string =>
      `node -e 'const net=require("net");let n=0;for(const p of ${JSON.stringify(list)}){const c=net.connect(p);c.on("data",d=>process.stdout.write(d));c.on("error",e=>console.log("refused",e.code));c.on("close",()=>{if(++n===${list.length})process.exit(0)})}'`;
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
