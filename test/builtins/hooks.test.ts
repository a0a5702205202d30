import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { findRg } from "../../src/builtins/index.js";
import { session, writeTree } from "./helpers.js";

describe("the tools' side effects go through the chain, where hooks see them", () => {
  it("a hook on fs.write sees the path Write and Edit write to", async () => {
    const s = session();
    const seen: string[] = [];
    s.chain.on("user", "test", "fs.write", null, (e, next) => {
      seen.push(e.path);
      return next();
    });
    await s.call("Write", { file_path: "src/a.ts", content: "a\n" });
    await s.call("Edit", { file_path: "src/a.ts", old_string: "a", new_string: "b" });
    expect(seen).toEqual([join(s.root, "src/a.ts"), join(s.root, "src/a.ts")]);
  });

  it("a hook on fs.read sees what Read reads, and can answer in its place", async () => {
    const s = session();
    writeTree(s.root, { "real.txt": "on disk\n" });
    s.chain.on("user", "test", "fs.read", null, (e, next) => {
      if (!e.path.endsWith("virtual.txt")) return next();
      const data = Buffer.from("from a hook\n");
      return { data, truncated: false, stat: { size: data.length, mtimeMs: 1, mode: 0o644, isFile: true, isDirectory: false } };
    });
    expect((await s.call("Read", { file_path: "virtual.txt" })).content).toBe("1\tfrom a hook");
    expect((await s.call("Read", { file_path: "real.txt" })).content).toBe("1\ton disk");
  });

  it("a hook on process.run sees Bash's argv and command, and can rewrite them (as a sandbox would)", async () => {
    const s = session();
    const seen: Array<{ argv: readonly string[]; command?: string; cwd: string }> = [];
    s.chain.on("user", "sandbox", "process.run", null, async (e, next) => {
      seen.push({ argv: e.argv, command: e.command, cwd: e.cwd });
      const r = await next({ ...e, argv: ["env", "SANDBOXED=yes", ...e.argv] });
      return { ...r, sandbox: "test" };
    });
    const r = await s.call("Bash", { command: "echo $SANDBOXED" });
    expect(r.content).toBe("yes");
    expect(r.meta).toMatchObject({ sandbox: "test" });
    expect(seen).toHaveLength(1);
    expect(seen[0].argv.slice(0, 2)).toEqual(["bash", "-c"]);
    expect(seen[0].argv[2]).toContain("echo $SANDBOXED");
    expect(seen[0].command).toBe("echo $SANDBOXED");
    expect(seen[0].cwd).toBe(s.root);
  });

  it.skipIf(findRg() === null)("a hook on process.run sees Grep run rg, and the listing of what it left out when it found nothing", async () => {
    const s = session();
    writeTree(s.root, { "a.txt": "needle\n" });
    const argvs: string[][] = [];
    s.chain.on("user", "test", "process.run", null, (e, next) => {
      argvs.push([...e.argv]);
      return next();
    });
    await s.call("Grep", { pattern: "needle" });
    expect(argvs).toHaveLength(1);
    expect(argvs[0][0]).toMatch(/rg$/);
    expect(argvs[0]).toContain("needle");
    await s.call("Grep", { pattern: "absent" });
    expect(argvs).toHaveLength(3);
    expect(argvs[2]).toContain("--files");
    expect(argvs[2]).not.toContain("absent");
  });

  it("a hook on fs.read sees every file Grep's built-in search opens", async () => {
    const s = session({ rgPath: null });
    writeTree(s.root, { "a.txt": "needle\n", "b/c.txt": "hay\n" });
    const paths: string[] = [];
    s.chain.on("user", "test", "fs.read", null, (e, next) => {
      paths.push(e.path);
      return next();
    });
    await s.call("Grep", { pattern: "needle" });
    expect(paths.sort()).toEqual([join(s.root, "a.txt"), join(s.root, "b/c.txt")]);
  });
});
