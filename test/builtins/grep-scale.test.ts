// Grep at scale. Through rg: rg runs in parallel (no `--sort path`, which makes rg walk and
// search on one thread) and its output is put back in rg's sorted order here (each file's lines
// come out together, in whatever order the files finished); rg gets only the secret places the
// search can reach. Built-in: files read whole are held within a byte budget.
import { describe, expect, it } from "vitest";
import { findRg } from "../../src/builtins/index.js";
import { byFile, rgArgs } from "../../src/builtins/grep-rg.js";
import type { GrepQuery } from "../../src/builtins/grep-search.js";
import { secretFilter } from "../../src/builtins/grep-secrets.js";
import { ByteBudget } from "../../src/builtins/grep-search.js";
import { session, tempDir, writeTree } from "./helpers.js";

const rg = findRg();
const line = (path: string, rest: string): string => `${path}\0${rest}`;

describe("rg's parallel output is sorted into rg's path order", () => {
  it("sorts whole files by path, segment by segment, keeping each file's lines in order", () => {
    const raw = [line("src/b.ts", "3:b three"), line("src/b.ts", "9:b nine"), line("a.ts", "1:a one"), line("src/a/z.ts", "2:z two"), line("src-x.ts", "4:x")];
    expect(byFile(raw, false)).toEqual([line("a.ts", "1:a one"), line("src/a/z.ts", "2:z two"), line("src/b.ts", "3:b three"), line("src/b.ts", "9:b nine"), line("src-x.ts", "4:x")]);
  });

  it("puts `--` between files when there is context, and keeps a file's own separators", () => {
    const raw = [
      line("b.ts", "1-ctx"), line("b.ts", "2:hit"), "--", line("b.ts", "8:hit"),
      "--", // between files, as rg printed them (finished in another order)
      line("a.ts", "4-ctx"), line("a.ts", "5:hit"),
    ];
    expect(byFile(raw, true)).toEqual([line("a.ts", "4-ctx"), line("a.ts", "5:hit"), "--", line("b.ts", "1-ctx"), line("b.ts", "2:hit"), "--", line("b.ts", "8:hit")]);
    expect(byFile([line("b.ts", "2:hit"), line("a.ts", "5:hit")], false)).toEqual([line("a.ts", "5:hit"), line("b.ts", "2:hit")]);
  });

  it("asks rg for no sorting in any mode", () => {
    const root = tempDir();
    const q: GrepQuery = { pattern: "x", mode: "content", ignoreCase: false, lineNumbers: true, before: 1, after: 1, multiline: false, globs: [], typeGlobs: null, root, target: root, targetIsFile: false };
    for (const mode of ["content", "files_with_matches", "count"] as const) expect(rgArgs({ ...q, mode })).not.toContain("--sort");
  });

  it.skipIf(rg === null)("prints a wide search with context exactly as the built-in search does (rg's sorted order)", async () => {
    const root = tempDir();
    const tree: Record<string, string> = {};
    for (let i = 0; i < 120; i++) tree[`d${i % 7}/sub${i % 3}/f${i}.txt`] = `one\nneedle ${i}\nthree\nfour\nfive\nneedle again\n`;
    writeTree(root, tree);
    const s = session({ root, rgPath: rg });
    const input = { pattern: "needle", output_mode: "content", "-C": 1, head_limit: 0 };
    const viaRg = await s.call("Grep", input);
    const builtin = await session({ root, rgPath: null }).call("Grep", input);
    expect(viaRg.meta?.engine).toBe("rg");
    expect(viaRg.content).toBe(builtin.content);
    expect(viaRg.content.split("\n").slice(0, 8)).toEqual(["d0/sub0/f0.txt-1-one", "d0/sub0/f0.txt:2:needle 0", "d0/sub0/f0.txt-3-three", "--", "d0/sub0/f0.txt-5-five", "d0/sub0/f0.txt:6:needle again", "--", "d0/sub0/f105.txt-1-one"]);
  });
});

describe("rg is handed only the secret places a search can reach", () => {
  it("leaves out the home folder's places when the project is searched, and keeps them when home is", () => {
    const base = tempDir();
    const root = `${base}/ws`;
    const home = `${base}/home`;
    writeTree(root, { "a.txt": "x\n" });
    const f = secretFilter(root, { home });
    const place = (g: string): boolean => g.includes("/.ssh");
    expect(f.globsFor(root).filter(place)).toEqual([]);
    expect(f.globsFor(`${root}/src`).length).toBeLessThan(f.globs.length / 2);
    for (const target of [home, `${home}/.ssh`, `${home}/.ssh/keys`, base]) expect(f.globsFor(target), target).toContain(`**${home}/.ssh`);
    // The secret names apply everywhere.
    expect(f.globsFor(root)).toContain(".env");
  });

  it("keeps the places inside the project when the home folder is in it", () => {
    const root = tempDir();
    const f = secretFilter(root, { home: `${root}/home` });
    expect(f.globsFor(root)).toEqual(expect.arrayContaining(["/home/.ssh", "/home/.ssh/**"]));
    expect(f.globsFor(`${root}/src`).filter((g) => g.includes("/.ssh"))).toEqual([]);
  });
});

describe("the built-in search holds files read whole within a byte budget", () => {
  const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

  it("grants room in file order, lets a file wait while others hold the bytes, and lets a big file in alone", async () => {
    const b = new ByteBudget(100);
    const got: number[] = [];
    const take = (j: number, bytes: number): void => void b.take(j, bytes).then(() => got.push(j));
    take(1, 60); // its head came back first: it waits for file 0's turn
    await tick();
    expect(got).toEqual([]);
    take(0, 60);
    await tick();
    expect(got).toEqual([0]); // 60 + 60 would pass the budget while file 0 holds its 60
    take(2, 0); // needs no bytes, but comes after file 1
    await tick();
    expect(got).toEqual([0]);
    b.give(60); // file 0 searched
    await tick();
    expect(got).toEqual([0, 1, 2]);
    take(3, 500); // larger than the budget: waits until nothing is held, then goes alone
    await tick();
    expect(got).toEqual([0, 1, 2]);
    b.give(60);
    await tick();
    expect(got).toEqual([0, 1, 2, 3]);
  });

  it("searches many long files, each read whole, with the same results", async () => {
    const root = tempDir();
    const tree: Record<string, string> = {};
    const filler = `${"x".repeat(99)}\n`.repeat(1500); // 150 kB: longer than the head
    for (let i = 0; i < 24; i++) tree[`big${String(i).padStart(2, "0")}.txt`] = `${filler}needle ${i}\n`;
    writeTree(root, tree);
    const r = await session({ root, rgPath: null }).call("Grep", { pattern: "needle", output_mode: "content", head_limit: 0 });
    expect(r.content.split("\n")).toEqual(Array.from({ length: 24 }, (_, i) => `big${String(i).padStart(2, "0")}.txt:1501:needle ${i}`));
  });
});
