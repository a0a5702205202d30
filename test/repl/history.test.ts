import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { History } from "../../src/cli/repl/history.js";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
const home = () => {
  const d = mkdtempSync(join(tmpdir(), "deepcode-hist-"));
  dirs.push(d);
  return d;
};

describe("prompt history", () => {
  it("is kept per project across sessions, newest first for readline", () => {
    const h = home();
    const a = new History(h, "/proj/a");
    a.add("first");
    a.add("second");
    new History(h, "/proj/b").add("elsewhere");
    expect(new History(h, "/proj/a").forReadline()).toEqual(["second", "first"]);
  });

  it("is deduplicated: an entry typed again moves to the newest place", () => {
    const h = home();
    const a = new History(h, "/p");
    for (const e of ["x", "y", "x"]) a.add(e);
    expect(new History(h, "/p").all()).toEqual(["y", "x"]);
  });

  it("keeps multi-line prompts whole in the file", () => {
    const h = home();
    new History(h, "/p").add("line one\nline two");
    expect(new History(h, "/p").all()).toEqual(["line one\nline two"]);
  });

  it("skips a torn line instead of losing the history", () => {
    const h = home();
    const hist = new History(h, "/p");
    hist.add("kept");
    writeFileSync(hist.file, `${readFileSync(hist.file, "utf8")}"torn`);
    expect(new History(h, "/p").all()).toEqual(["kept"]);
  });

  it("never breaks the REPL when the history cannot be written", () => {
    const h = home();
    mkdirSync(join(h, "history"));
    writeFileSync(join(h, "history", "-p.jsonl"), "");
    const hist = new History(h, "/p");
    rmSync(join(h, "history"), { recursive: true });
    writeFileSync(join(h, "history"), "a file where the folder should be");
    expect(() => hist.add("still fine")).not.toThrow();
  });
});
