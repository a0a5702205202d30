// Long options as each program reads them (shell/long-options.ts): a unique prefix is the option
// itself, for the decision and for plan mode's read-only check alike; an ambiguous prefix, or an
// unknown long option of a program whose table is complete, asks; npm's open table lets unknown
// configuration keys through (they only set configuration) but not abbreviations of risky ones.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bashEffects } from "../../src/lib/effects/tool-effects.js";
import { resolveLong, spellOutOptions } from "../../src/lib/shell/long-options.js";
import { plainWord } from "../../src/lib/shell/lexer.js";
import { bash, makeWorkspace, rulesOf, type Workspace } from "./helpers.js";

let ws: Workspace;
beforeAll(() => {
  ws = makeWorkspace();
});
afterAll(() => ws.cleanup());

const words = (line: string) => line.split(" ").map((v) => plainWord(v));

describe("resolveLong", () => {
  const names = new Set(["in-place", "expression", "sandbox", "separate", "silent"]);
  it("takes an exact name, expands a unique prefix, and reports ambiguity and unknown names", () => {
    expect(resolveLong(names, "silent")).toEqual({ kind: "name", name: "silent" });
    expect(resolveLong(names, "in-pl")).toEqual({ kind: "name", name: "in-place" });
    expect(resolveLong(names, "s")).toEqual({ kind: "ambiguous", names: ["sandbox", "separate", "silent"] });
    expect(resolveLong(names, "frob")).toEqual({ kind: "unknown" });
  });
});

describe("spellOutOptions", () => {
  it("writes abbreviations out in full, keeping the value, and stops at --", () => {
    expect(spellOutOptions("sed", words("sed --in-pl=.bak --expr=p -- --fil")).words.map((w) => w.value)).toEqual(["sed", "--in-place=.bak", "--expression=p", "--", "--fil"]);
    expect(spellOutOptions("git", words("git -C x fetch --upload-pa=p .")).words.map((w) => w.value)).toEqual(["git", "-C", "x", "fetch", "--upload-pack=p", "."]);
    expect(spellOutOptions("npm", words("npm test -node-opt=x -ws")).words.map((w) => w.value)).toEqual(["npm", "test", "--node-options=x", "-ws"]);
  });
  it("leaves npx's command words alone after the first operand", () => {
    expect(spellOutOptions("npx", words("npx prettier --c x")).words.map((w) => w.value)).toEqual(["npx", "prettier", "--c", "x"]);
    expect(spellOutOptions("npx", words("npx prettier --c x")).unsure).toEqual([]);
  });
});

describe("decisions on abbreviated options", () => {
  const rules = () => rulesOf({ project: { allow: ["Bash(sed:*)", "Bash(npm test:*)", "Bash(sort:*)", "Bash(git fetch:*)"] } });
  it("asks for an ambiguous abbreviation and an unknown option of a complete table", () => {
    expect(bash("sed --s p README.md", rules(), ws.env)).toBe("ask");
    expect(bash("sed --frobnicate p README.md", rules(), ws.env)).toBe("ask");
    expect(bash("sort --rev README.md", rules(), ws.env)).toBe("allow");
  });
  it("lets an unknown npm configuration key through, but not an abbreviation of a risky one", () => {
    expect(bash("npm test --some-unknown-key=1", rules(), ws.env)).toBe("allow");
    expect(bash("npm test --globalc=x", rules(), ws.env)).toBe("ask");
    expect(bash("git fetch --upl=x .", rules(), ws.env)).toBe("ask");
  });
});

describe("plan mode's read-only check reads the same full names", () => {
  it("sees the writes of sed --in-pl, sort --outp= and uniq's output operand", () => {
    const env = { cwd: ws.root, home: ws.home };
    expect(bashEffects("sed -n p README.md", env).readOnly).toBe(true);
    for (const line of ["sed --in-pl s/a/b/ README.md", "sort --outp=x.txt README.md", "uniq README.md out.txt", "iconv -f utf8 -t utf8 -o x README.md"]) {
      expect(bashEffects(line, env).readOnly, line).toBe(false);
    }
  });
});
