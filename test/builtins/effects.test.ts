import { describe, expect, it } from "vitest";
import { chmodSync, closeSync, openSync, readFileSync, readSync, readdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { Chain } from "../../src/core/chain.js";
import { killAllGroups, registerEffects } from "../../src/core/effects.js";
import { alive, eventually, tempDir } from "./helpers.js";

function chain(): Chain {
  const c = new Chain();
  registerEffects(c);
  return c;
}

describe("fs.read", () => {
  it("returns the bytes and the file's stat", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "a.txt"), "hello");
    const r = await chain().dispatch({ type: "fs.read", path: join(dir, "a.txt") });
    expect(r.data.toString()).toBe("hello");
    expect(r.truncated).toBe(false);
    expect(r.stat).toMatchObject({ size: 5, isFile: true, isDirectory: false });
  });

  it("reads at most maxBytes and says it stopped short", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "a.txt"), "0123456789");
    const r = await chain().dispatch({ type: "fs.read", path: join(dir, "a.txt"), maxBytes: 4 });
    expect(r.data.toString()).toBe("0123");
    expect(r.truncated).toBe(true);
  });

  it("fails with ENOENT for a missing file and EISDIR for a folder", async () => {
    const dir = tempDir();
    await expect(chain().dispatch({ type: "fs.read", path: join(dir, "nope") })).rejects.toMatchObject({ code: "ENOENT" });
    await expect(chain().dispatch({ type: "fs.read", path: dir })).rejects.toMatchObject({ code: "EISDIR" });
  });
});

describe("fs.write", () => {
  it("writes atomically through a temp file and leaves nothing else behind", async () => {
    const dir = tempDir();
    const r = await chain().dispatch({ type: "fs.write", path: join(dir, "a.txt"), data: "one" });
    expect(r.created).toBe(true);
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("one");
    const again = await chain().dispatch({ type: "fs.write", path: join(dir, "a.txt"), data: Buffer.from("two") });
    expect(again.created).toBe(false);
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("two");
    expect(readdirSync(dir)).toEqual(["a.txt"]);
  });

  it("replaces the file by rename: a reader that opened the old file still reads it whole", async () => {
    const dir = tempDir();
    const path = join(dir, "a.txt");
    writeFileSync(path, "old content");
    const fd = openSync(path, "r");
    try {
      await chain().dispatch({ type: "fs.write", path, data: "new" });
      const buf = Buffer.alloc(64);
      expect(buf.subarray(0, readSync(fd, buf, 0, 64, 0)).toString()).toBe("old content");
      expect(readFileSync(path, "utf8")).toBe("new");
    } finally {
      closeSync(fd);
    }
  });

  it("keeps an existing file's mode and gives a new file the mode asked for", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "x.sh"), "a");
    chmodSync(join(dir, "x.sh"), 0o741);
    await chain().dispatch({ type: "fs.write", path: join(dir, "x.sh"), data: "b", mode: 0o600 });
    expect(statSync(join(dir, "x.sh")).mode & 0o777).toBe(0o741);
    await chain().dispatch({ type: "fs.write", path: join(dir, "secret"), data: "s", mode: 0o600 });
    expect(statSync(join(dir, "secret")).mode & 0o777).toBe(0o600);
  });

  it("creates missing folders only when asked", async () => {
    const dir = tempDir();
    await expect(chain().dispatch({ type: "fs.write", path: join(dir, "a/b/c.txt"), data: "x" })).rejects.toMatchObject({ code: "ENOENT" });
    await chain().dispatch({ type: "fs.write", path: join(dir, "a/b/c.txt"), data: "x", createDirs: true });
    expect(readFileSync(join(dir, "a/b/c.txt"), "utf8")).toBe("x");
  });

  it("writes through a symbolic link, keeping the link", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "target.txt"), "old");
    symlinkSync("target.txt", join(dir, "link.txt"));
    await chain().dispatch({ type: "fs.write", path: join(dir, "link.txt"), data: "new" });
    expect(readFileSync(join(dir, "target.txt"), "utf8")).toBe("new");
    expect(readdirSync(dir).sort()).toEqual(["link.txt", "target.txt"]);
  });
});

describe("process.run", () => {
  const run = (argv: string[], extra: Record<string, unknown> = {}) =>
    chain().dispatch({ type: "process.run", argv, cwd: tempDir(), timeoutMs: 10_000, ...extra });

  it("runs argv without a shell and reports the exit code", async () => {
    const r = await run(["node", "-e", "process.stdout.write(process.argv[1]); process.exit(4)", "$HOME;|"]);
    expect(r.stdout).toBe("$HOME;|");
    expect(r.exitCode).toBe(4);
    expect(r.timedOut).toBe(false);
  });

  it("passes stdin and merges env over the inherited environment", async () => {
    const r = await run(["bash", "-c", 'read line; echo "$line $FOO ${PATH:+has-path}"'], { stdin: "in\n", env: { FOO: "bar" } });
    expect(r.stdout).toBe("in bar has-path\n");
  });

  it("keeps head and tail of long output per stream, naming the bytes cut", async () => {
    const r = await run(["bash", "-c", "head -c 100000 /dev/zero | tr '\\0' a; echo; echo END"], { maxOutputBytes: 1000 });
    expect(r.stdout.startsWith("a".repeat(500))).toBe(true);
    expect(r.stdout.endsWith("END\n")).toBe(true);
    expect(r.stdout).toContain("[99005 bytes of output cut]");
    expect(r.truncatedBytes).toBe(99005);
  });

  it("kills the process group on timeout", async () => {
    const dir = tempDir();
    const r = await chain().dispatch({
      type: "process.run",
      argv: ["bash", "-c", `sleep 100 & echo $! > ${dir}/pid; wait`],
      cwd: dir,
      timeoutMs: 500,
    });
    expect(r.timedOut).toBe(true);
    const pid = Number(readFileSync(join(dir, "pid"), "utf8"));
    expect(await eventually(() => !alive(pid))).toBe(true);
  });

  it("kills every live process group when deepcode exits", async () => {
    const dir = tempDir();
    const r = await chain().dispatch({ type: "process.run", argv: ["bash", "-c", `sleep 100 & echo $!`], cwd: dir, timeoutMs: 10_000 });
    const pid = Number(r.stdout.trim());
    expect(alive(pid)).toBe(true);
    expect(process.listeners("exit")).toContain(killAllGroups);
    killAllGroups();
    expect(await eventually(() => !alive(pid))).toBe(true);
  });

  it("rejects when the program does not exist", async () => {
    await expect(run(["definitely-not-a-program-xyz"])).rejects.toMatchObject({ code: "ENOENT" });
  });
});

describe("http.fetch", () => {
  const loopbackAllowed = (): Chain => {
    const c = new Chain();
    registerEffects(c, { fetch: { privateHostAllowed: (host) => host === "127.0.0.1" } });
    return c;
  };

  it("fetches over the network with method, headers and body when a rule names the loopback host", async () => {
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        res.setHeader("x-echo", String(req.headers["x-test"]));
        res.end(`${req.method} ${body}`);
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as AddressInfo;
    try {
      const r = await loopbackAllowed().dispatch({ type: "http.fetch", url: `http://127.0.0.1:${port}/`, method: "POST", headers: { "x-test": "yes" }, body: "hi" });
      expect(r).toMatchObject({ status: 200, body: "POST hi", address: "127.0.0.1" });
      expect(r.headers["x-echo"]).toBe("yes");
    } finally {
      server.close();
    }
  });

  it("never reaches a loopback, private or link-local address that no rule names, by IP or by a name resolving there", async () => {
    let hits = 0;
    const server = createServer((_req, res) => {
      hits++;
      res.end("reached");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as AddressInfo;
    try {
      for (const url of [`http://127.0.0.1:${port}/`, `http://localhost:${port}/`, `http://[::ffff:127.0.0.1]:${port}/`, "http://169.254.169.254/latest/meta-data/", "http://10.0.0.1/", "http://192.168.1.1/"]) {
        await expect(chain().dispatch({ type: "http.fetch", url }), url).rejects.toThrow(/request refused: .* (loopback|link-local|private) address/);
      }
      // A rule naming 127.0.0.1 does not cover another name that resolves there.
      await expect(loopbackAllowed().dispatch({ type: "http.fetch", url: `http://localhost:${port}/` })).rejects.toThrow(/localhost resolves to 127\.0\.0\.1/);
      expect(hits).toBe(0);
    } finally {
      server.close();
    }
  });

  it("returns a redirect as it is instead of following it, and decompresses and bounds the body", async () => {
    const { gzipSync } = await import("node:zlib");
    const server = createServer((req, res) => {
      if (req.url === "/moved") {
        res.writeHead(302, { location: "http://10.0.0.1/inside" });
        return res.end();
      }
      res.writeHead(200, { "content-type": "text/plain; charset=utf-8", "content-encoding": "gzip" });
      res.end(gzipSync("é".repeat(5000)));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as AddressInfo;
    try {
      const moved = await loopbackAllowed().dispatch({ type: "http.fetch", url: `http://127.0.0.1:${port}/moved` });
      expect(moved.status).toBe(302);
      expect(moved.headers.location).toBe("http://10.0.0.1/inside");
      const whole = await loopbackAllowed().dispatch({ type: "http.fetch", url: `http://127.0.0.1:${port}/text` });
      expect(whole.body).toBe("é".repeat(5000));
      expect(whole.truncated).toBeUndefined();
      const cut = await loopbackAllowed().dispatch({ type: "http.fetch", url: `http://127.0.0.1:${port}/text`, maxBytes: 100 });
      expect(cut.truncated).toBe(true);
      expect(cut.body).toBe("é".repeat(50));
    } finally {
      server.close();
    }
  });
});
