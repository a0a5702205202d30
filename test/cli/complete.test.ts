import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { completeLine, type CompleteOptions } from "../../src/cli/complete.js";
import { tempDirs, writeTree, type Dirs } from "./helpers.js";

let d: Dirs;
let o: CompleteOptions;
beforeEach(() => {
  d = tempDirs();
  writeTree(d.root, {
    "src/app.ts": "",
    "src/api/client.ts": "",
    "src/api/server.ts": "",
    "src/.secret": "",
    "scripts/build.sh": "",
    "README.md": "",
    ".env": "",
    "my notes.txt": "",
  });
  o = {
    root: d.root,
    commands: ["/help", "/model", "/compact", "/context", "/cost", "/git:commit", "/git:push"],
    argCompleters: { "/model": () => ["deepseek-flash", "deepseek-pro", "deepseek-reasoner"] },
  };
});
afterEach(() => d.cleanup());

describe("slash commands", () => {
  it("completes a command name from its start, custom commands included", () => {
    expect(completeLine("/co", o)).toEqual([["/compact", "/context", "/cost"], "/co"]);
    expect(completeLine("/git:", o)).toEqual([["/git:commit", "/git:push"], "/git:"]);
    expect(completeLine("/h", o)).toEqual([["/help "], "/h"]); // a whole word: a space after it
  });

  it("offers every command for a lone slash, and nothing for an unknown start", () => {
    expect(completeLine("/", o)[0]).toHaveLength(7);
    expect(completeLine("/zz", o)).toEqual([[], "/zz"]);
  });
});

describe("paths after @", () => {
  it("completes names in the project root, folders with a trailing slash, hidden ones left out", () => {
    expect(completeLine("look at @", o)).toEqual([["@README.md", '@"my notes.txt"', "@scripts/", "@src/"], "@"]);
    expect(completeLine("look at @s", o)).toEqual([["@scripts/", "@src/"], "@s"]);
  });

  it("goes into nested folders", () => {
    expect(completeLine("@src/", o)).toEqual([["@src/api/", "@src/app.ts"], "@src/"]);
    expect(completeLine("fix @src/api/s", o)).toEqual([["@src/api/server.ts "], "@src/api/s"]);
  });

  it("offers hidden entries only when the partial starts with a dot", () => {
    expect(completeLine("@.", o)[0]).toEqual(["@.env "]);
    expect(completeLine("@src/.", o)[0]).toEqual(["@src/.secret "]);
  });

  it("offers nothing outside the root or in a folder that does not exist", () => {
    expect(completeLine("@../", o)).toEqual([[], "@../"]);
    expect(completeLine("@nope/", o)).toEqual([[], "@nope/"]);
  });

  it("completes a path inside a slash command's arguments too", () => {
    expect(completeLine("/review @scr", o)).toEqual([["@scripts/"], "@scr"]);
  });
});

describe("command arguments", () => {
  it("asks the command's completer and keeps the candidates that fit the word typed", () => {
    expect(completeLine("/model deepseek-", o)).toEqual([["deepseek-flash", "deepseek-pro", "deepseek-reasoner"], "deepseek-"]);
    expect(completeLine("/model deepseek-p", o)).toEqual([["deepseek-pro "], "deepseek-p"]);
    expect(completeLine("/model ", o)).toEqual([["deepseek-flash", "deepseek-pro", "deepseek-reasoner"], ""]);
  });

  it("offers nothing for a command without a completer, or when the completer fails", () => {
    expect(completeLine("/compact keep", o)).toEqual([[], "keep"]);
    const failing = { ...o, argCompleters: { "/model": () => { throw new Error("no models"); } } };
    expect(completeLine("/model x", failing)).toEqual([[], "x"]);
  });

  it("offers nothing for plain prose", () => {
    expect(completeLine("refactor the par", o)).toEqual([[], "par"]);
  });
});
