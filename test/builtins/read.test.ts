import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { session, writeTree } from "./helpers.js";

describe("Read shows a text file as numbered lines", () => {
  it("numbers each line, right-aligned, then a tab, then the text", async () => {
    const s = session();
    writeTree(s.root, { "src/a.ts": "const a = 1;\nconst b = 2;\n" });
    const r = await s.call("Read", { file_path: "src/a.ts" });
    expect(r.isError).toBeFalsy();
    expect(r.content).toBe("1\tconst a = 1;\n2\tconst b = 2;");
    expect(r.summary).toBe("Read src/a.ts (2 lines)");
  });

  it("accepts an absolute path and names the file project-relative", async () => {
    const s = session();
    writeTree(s.root, { "a.txt": "x\n" });
    const r = await s.call("Read", { file_path: join(s.root, "a.txt") });
    expect(r.summary).toBe("Read a.txt (1 line)");
  });

  it("starts at the 1-based offset and stops after limit lines, saying how to read on", async () => {
    const s = session();
    writeTree(s.root, { "n.txt": Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join("\n") });
    const r = await s.call("Read", { file_path: "n.txt", offset: 4, limit: 2 });
    expect(r.content.split("\n").slice(0, 2)).toEqual(["4\tline 4", "5\tline 5"]);
    expect(r.content).toContain("Showing lines 4–5 of 10");
    expect(r.content).toContain("offset=6");
  });

  it("reads 2000 lines by default", async () => {
    const s = session();
    writeTree(s.root, { "big.txt": Array.from({ length: 2500 }, (_, i) => `${i + 1}`).join("\n") });
    const r = await s.call("Read", { file_path: "big.txt" });
    expect(r.content).toContain("2000\t2000");
    expect(r.content).not.toContain("\t2001");
    expect(r.summary).toBe("Read big.txt (2000 lines)");
  });

  it("shows whole lines up to 24,000 characters, then says where to read on", async () => {
    const s = session();
    writeTree(s.root, { "wide.txt": Array.from({ length: 1000 }, (_, i) => `${i + 1} ${"x".repeat(95)}`).join("\n") });
    const r = await s.call("Read", { file_path: "wide.txt" });
    const body = r.content.split("\n\n(")[0];
    expect(body.length).toBeLessThanOrEqual(24_000);
    const last = Number(body.split("\n").at(-1)!.split("\t")[0]);
    expect(r.content.endsWith(`(Showing lines 1–${last} of 1000. Pass offset=${last + 1} to read on.)`)).toBe(true);
    const next = await s.call("Read", { file_path: "wide.txt", offset: last + 1 });
    expect(next.content.startsWith(`${last + 1}\t${last + 1} x`)).toBe(true);
  });

  it("says so when the offset is past the end of the file", async () => {
    const s = session();
    writeTree(s.root, { "short.txt": "a\nb\n" });
    const r = await s.call("Read", { file_path: "short.txt", offset: 9 });
    expect(r.content).toBe("short.txt has 2 lines; offset 9 is past its end.");
  });

  it("cuts lines longer than 2000 characters with a marker naming the full length", async () => {
    const s = session();
    writeTree(s.root, { "long.txt": `${"x".repeat(5000)}\nshort\n` });
    const r = await s.call("Read", { file_path: "long.txt" });
    const first = r.content.split("\n")[0];
    expect(first.length).toBeLessThan(2100);
    expect(first).toContain("[line cut: 5000 characters in all]");
    expect(r.content.split("\n")[1]).toBe("2\tshort");
  });

  it("says an empty file is empty", async () => {
    const s = session();
    writeTree(s.root, { "empty.txt": "" });
    const r = await s.call("Read", { file_path: "empty.txt" });
    expect(r.isError).toBeFalsy();
    expect(r.content).toBe("empty.txt is empty (0 lines).");
  });

  it("refuses a binary file with a clear message", async () => {
    const s = session();
    writeTree(s.root, { "img.png": Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]) });
    const r = await s.call("Read", { file_path: "img.png" });
    expect(r.isError).toBe(true);
    expect(r.content).toMatch(/^Cannot read img\.png: it looks like a binary file \(it contains NUL bytes/);
  });

  it("refuses bytes that are neither UTF-8 nor text", async () => {
    const s = session();
    writeTree(s.root, { "noise.bin": Buffer.from(Array.from({ length: 200 }, (_, i) => (i % 2 ? 0x01 : 0xff))) });
    const r = await s.call("Read", { file_path: "noise.bin" });
    expect(r.isError).toBe(true);
    expect(r.content).toContain("binary");
  });

  it("reads Latin-1 text that is not valid UTF-8", async () => {
    const s = session();
    writeTree(s.root, { "latin.txt": Buffer.from("caf\xe9\n", "latin1") });
    const r = await s.call("Read", { file_path: "latin.txt" });
    expect(r.content).toBe("1\tcafé");
  });

  it("shows CRLF lines without their carriage return and drops a BOM", async () => {
    const s = session();
    writeTree(s.root, { "win.txt": Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("one\r\ntwo\r\n")]) });
    const r = await s.call("Read", { file_path: "win.txt" });
    expect(r.content).toBe("1\tone\n2\ttwo");
  });

  it("tells the model to use Glob for a folder, and names a missing file", async () => {
    const s = session();
    writeTree(s.root, { "src/a.ts": "" });
    const dir = await s.call("Read", { file_path: "src" });
    expect(dir.isError).toBe(true);
    expect(dir.content).toContain("is a directory");
    expect(dir.content).toContain("Glob");
    const missing = await s.call("Read", { file_path: "nope.ts" });
    expect(missing).toMatchObject({ isError: true, content: "File does not exist: nope.ts" });
  });

  it("records what it read, also for a partial read", async () => {
    const s = session();
    writeTree(s.root, { "a.txt": "1\n2\n3\n" });
    await s.call("Read", { file_path: "a.txt", offset: 2, limit: 1 });
    const rec = s.reads.get(join(s.root, "a.txt"));
    expect(rec).toMatchObject({ size: 6 });
    expect(rec!.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rec!.mtimeMs).toBeGreaterThan(0);
  });
});
