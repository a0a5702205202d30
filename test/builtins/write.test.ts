import { describe, expect, it } from "vitest";
import { chmodSync, readFileSync, readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { session, writeTree } from "./helpers.js";

describe("Write creates and replaces whole files", () => {
  it("creates a new file, and its folders, without a Read", async () => {
    const s = session();
    const r = await s.call("Write", { file_path: "src/new/a.ts", content: "export const a = 1;\n" });
    expect(r.isError).toBeFalsy();
    expect(readFileSync(join(s.root, "src/new/a.ts"), "utf8")).toBe("export const a = 1;\n");
    expect(r.summary).toBe("Write src/new/a.ts (1 line)");
    expect(r.content).toContain("Created src/new/a.ts");
  });

  it("refuses to overwrite a file that was not read in this session", async () => {
    const s = session();
    writeTree(s.root, { "a.txt": "precious\n" });
    const r = await s.call("Write", { file_path: "a.txt", content: "gone\n" });
    expect(r.isError).toBe(true);
    expect(r.content).toBe("a.txt exists but has not been read in this session. Read it first, then retry.");
    expect(readFileSync(join(s.root, "a.txt"), "utf8")).toBe("precious\n");
  });

  it("overwrites a file that was read and has not changed since", async () => {
    const s = session();
    writeTree(s.root, { "a.txt": "old\n" });
    await s.call("Read", { file_path: "a.txt" });
    const r = await s.call("Write", { file_path: "a.txt", content: "new\nlines\n" });
    expect(r.isError).toBeFalsy();
    expect(r.summary).toBe("Write a.txt (2 lines)");
    expect(readFileSync(join(s.root, "a.txt"), "utf8")).toBe("new\nlines\n");
    expect(r.meta).toMatchObject({ added: 2, removed: 1 });
  });

  it("refuses to overwrite a file that changed after it was read, and says to Read it again", async () => {
    const s = session();
    writeTree(s.root, { "a.txt": "v1\n" });
    await s.call("Read", { file_path: "a.txt" });
    writeFileSync(join(s.root, "a.txt"), "v2 by someone else\n");
    const r = await s.call("Write", { file_path: "a.txt", content: "mine\n" });
    expect(r.isError).toBe(true);
    expect(r.content).toContain("has changed since it was last read");
    expect(r.content).toContain("Read it again");
    expect(readFileSync(join(s.root, "a.txt"), "utf8")).toBe("v2 by someone else\n");
  });

  it("treats a new modification time over the same bytes as unchanged", async () => {
    const s = session();
    writeTree(s.root, { "a.txt": "same\n" });
    await s.call("Read", { file_path: "a.txt" });
    utimesSync(join(s.root, "a.txt"), new Date(), new Date(Date.now() + 5000));
    const r = await s.call("Write", { file_path: "a.txt", content: "next\n" });
    expect(r.isError).toBeFalsy();
  });

  it("keeps the mode of the file it replaces", async () => {
    const s = session();
    writeTree(s.root, { "run.sh": "#!/bin/sh\necho 1\n" });
    chmodSync(join(s.root, "run.sh"), 0o750);
    await s.call("Read", { file_path: "run.sh" });
    await s.call("Write", { file_path: "run.sh", content: "#!/bin/sh\necho 2\n" });
    expect(statSync(join(s.root, "run.sh")).mode & 0o777).toBe(0o750);
  });

  it("records what it wrote, so an Edit can follow without a new Read", async () => {
    const s = session();
    await s.call("Write", { file_path: "a.txt", content: "hello world\n" });
    const r = await s.call("Edit", { file_path: "a.txt", old_string: "world", new_string: "there" });
    expect(r.isError).toBeFalsy();
    expect(readFileSync(join(s.root, "a.txt"), "utf8")).toBe("hello there\n");
  });

  it("leaves no temporary file behind", async () => {
    const s = session();
    await s.call("Write", { file_path: "a.txt", content: "x" });
    expect(readdirSync(s.root)).toEqual(["a.txt"]);
  });

  it("keeps a UTF-16 file UTF-16", async () => {
    const s = session();
    writeTree(s.root, { "u.txt": Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("old\n", "utf16le")]) });
    await s.call("Read", { file_path: "u.txt" });
    await s.call("Write", { file_path: "u.txt", content: "new\n" });
    expect(readFileSync(join(s.root, "u.txt"))).toEqual(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("new\n", "utf16le")]));
  });
});
