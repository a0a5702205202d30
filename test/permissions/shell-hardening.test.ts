// What an allow rule for a command covers, and what it does not: text bash evaluates inside a
// word, writes of their own (redirections, tee, write options), code-running options, reads of
// secrets through file commands and recursive reads, links made on the line, hard links.
// (test/permissions/bash-differential.test.ts runs the adversarial corpus through real bash.)
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { linkSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { decide, type Decision } from "../../src/cli/permissions/index.js";
import { makeWorkspace, rulesOf, type Workspace } from "./helpers.js";

let ws: Workspace;
beforeEach(() => {
  ws = makeWorkspace();
  writeFileSync(join(ws.root, "README.md"), "# r\n");
});
afterEach(() => ws.cleanup());

const run = (command: string, allow: string[], deny: string[] = []): Decision => decide({ tool: "Bash", input: { command }, readOnly: false }, rulesOf({ project: { allow, deny } }), ws.env);

describe("text bash evaluates inside a word asks, even for harmless builtins", () => {
  const cases: Array<[string, RegExp]> = [
    ["test -v 'a[$(rm x)]'", /array subscript/],
    ["[[ -v $NAME ]]", /named only at run time/],
    ["printf -v 'a[$(rm x)]' y", /printf -v: an array subscript/],
    ["declare -n r=x", /name reference/],
    ["let x=1", /let evaluates arithmetic/],
    ["echo ${!x}", /indirect expansion/],
    ["echo ${a[i]}", /array subscript in \$\{…\}/],
    ["echo ${x:i}", /substring offset/],
    ["echo ${x@P}", /prompt/],
    ["trap 'rm x' EXIT", /trap keeps a command/],
    ["shopt -s dotglob", /shopt changes/],
    ["set -k", /set -k changes/],
    ["mapfile -C cb arr", /callback/],
    ["TEST[i]=1", /array subscript in an assignment/],
  ];
  for (const [command, why] of cases) {
    it(`${command}`, () => {
      const d = run(command, ["Bash(printf:*)", "Bash(declare:*)", "Bash(let:*)", "Bash(echo:*)", "Bash(trap:*)", "Bash(shopt:*)", "Bash(set:*)", "Bash(mapfile:*)"]);
      expect(d.decision).toBe("ask");
      expect(d.reason).toMatch(why);
    });
  }

  it("still lets the forms that evaluate nothing through", () => {
    for (const c of ["test -v HOME", "[ 'a[$(rm x)]' -gt 1 ]", "echo ${x:-d} ${#x} ${x:1:2} ${a[0]} ${a[@]} ${!a[@]}", "set -euo pipefail"]) {
      expect(run(c, ["Bash(echo:*)", "Bash(set:*)"]).decision, c).toBe("allow");
    }
  });

  it("denies a trap or alias whose code runs a denied command", () => {
    expect(run("trap 'rm x' EXIT", ["Bash(trap:*)"], ["Bash(rm:*)"]).decision).toBe("deny");
    expect(run("alias ls='rm x'", ["Bash(alias:*)"], ["Bash(rm:*)"]).decision).toBe("deny");
  });

  it("treats variables set by builtins as assignments (export, read, printf -v)", () => {
    for (const c of ["export PATH=.", "read PATH", "printf -v PATH .", "unset PATH"]) {
      const d = run(c, ["Bash(export:*)", "Bash(read:*)", "Bash(printf:*)", "Bash(unset:*)"]);
      expect(d.decision, c).toBe("ask");
      expect(d.reason).toMatch(/sets PATH/);
    }
    expect(run("export NODE_ENV=test", ["Bash(export:*)"]).decision).toBe("allow");
  });
});

describe("writes an allow rule for the command does not name need what a Write needs", () => {
  it("asks for tee's files and read tools' write options, and a rule naming the option covers it", () => {
    expect(run("echo a | tee out.txt", ["Bash(echo:*)", "Bash(tee:*)"]).reason).toMatch(/through tee/);
    expect(run("sed -i s/a/b/ README.md", ["Bash(sed:*)"]).reason).toMatch(/through sed -i/);
    expect(run("sort -o out.txt README.md", ["Bash(sort:*)"]).reason).toMatch(/through sort -o/);
    expect(run("sed -i s/a/b/ README.md", ["Bash(sed -i:*)"]).decision).toBe("allow");
    expect(run("sed -i s/a/b/ README.md", ["Bash(sed:*)", "Edit(README.md)"]).decision).toBe("allow");
  });

  it("leaves a file tool's own operands to its rule, inside the workspace", () => {
    expect(run("cp README.md copy.md", ["Bash(cp:*)"]).decision).toBe("allow");
    expect(run("touch new.txt", ["Bash(touch:*)"]).decision).toBe("allow");
  });
});

describe("options through which an allowed program runs other code ask, naming the option", () => {
  const cases: Array<[string, string, RegExp]> = [
    ["npm test --node-options=--require=./x.js", "Bash(npm test:*)", /--node-options/],
    ["npm exec cowsay", "Bash(npm:*)", /npm exec/],
    ["node -e 'x'", "Bash(node:*)", /-e runs the code/],
    ["node --require ./x.js app.js", "Bash(node:*)", /--require/],
    ["python3 -c 'x'", "Bash(python3:*)", /-c runs the code/],
    ["git -c core.pager=x log", "Bash(git:*)", /git -c/],
    ["git -C /elsewhere status", "Bash(git:*)", /another repository/],
    ["git config core.pager x", "Bash(git:*)", /git config changes/],
    ["make test -f other.mk", "Bash(make test:*)", /-f reads another makefile/],
    ["make test CC=x", "Bash(make test:*)", /overrides a makefile variable/],
    ["cargo test --config x", "Bash(cargo test:*)", /--config/],
    ["sed 's/a/b/e' README.md", "Bash(sed:*)", /s\/\/\/e/],
    ["awk 'BEGIN{system(\"x\")}'", "Bash(awk:*)", /system\(\)/],
    ["tar -tf a.tar --to-command=x", "Bash(tar:*)", /--to-command/],
    ["ssh -o ProxyCommand=x host", "Bash(ssh:*)", /-o sets options/],
    ["find . -delete", "Bash(find:*)", /-delete/],
    ["pytest -p evil", "Bash(pytest:*)", /-p loads a plugin/],
  ];
  for (const [command, rule, why] of cases) {
    it(`${command} under ${rule}`, () => {
      const d = run(command, [rule]);
      expect(d.decision).toBe("ask");
      expect(d.reason).toMatch(why);
    });
  }

  it("does not ask when the rule names the option, the option is the script's, or everything is allowed", () => {
    expect(run("node -e 'x'", ["Bash(node -e:*)"]).decision).toBe("allow");
    expect(run("python3 -m pytest -x", ["Bash(python3 -m pytest:*)"]).decision).toBe("allow");
    expect(run("node app.js -e x", ["Bash(node:*)"]).decision).toBe("allow");
    expect(run("git -C src status", ["Bash(git:*)"]).decision).toBe("allow");
    expect(run("git config --get user.name", ["Bash(git:*)"]).decision).toBe("allow");
    expect(run("node -e 'x'", ["Bash"]).decision).toBe("allow");
  });
});

describe("secrets reached through file commands and recursive reads ask", () => {
  beforeEach(() => {
    writeFileSync(join(ws.root, ".env"), "T=1\n");
    mkdirSync(join(ws.root, "lib"));
    writeFileSync(join(ws.root, "lib", "a.ts"), "x\n");
  });

  it("reads the source of ln, mv and cp", () => {
    for (const c of ["ln .env notes.txt", "mv .env notes.txt", "cp .env notes.txt"]) expect(run(c, ["Bash(ln:*)", "Bash(mv:*)", "Bash(cp:*)"]).reason, c).toMatch(/\.env files usually hold secrets/);
  });

  it("asks for a recursive read whose tree holds a secret, not for one that holds none", () => {
    const rules = ["Bash(grep:*)", "Bash(rg:*)", "Bash(tar:*)", "Bash(find:*)", "Bash(cat:*)"];
    for (const c of ["grep -r T .", "grep -R T", "rg --hidden T", "rg -uu T", "tar -cf - .", "find . -exec cat {} +"]) {
      const d = run(c, rules);
      expect(d.decision, c).toBe("ask");
      expect(d.reason, c).toMatch(/reads every file below .*secrets \(.*\.env\)/);
    }
    expect(run("grep -r x lib", rules).decision).toBe("allow");
    expect(run("rg x", rules).decision).toBe("allow"); // rg leaves hidden files (.env) out unless told
    expect(run("grep -r x .", [...rules, "Read(.env)"]).decision).toBe("allow");
  });

  it("asks for a file command that gets its files at run time (xargs)", () => {
    expect(run("echo .env | xargs cat", ["Bash(echo:*)", "Bash(xargs:*)", "Bash(cat:*)"]).reason).toMatch(/named only at run time/);
  });
});

describe("links made on the line, and hard links", () => {
  it("asks for a write after a command that may create or move a link", () => {
    for (const c of ["ln -s /elsewhere d && echo x > d/f", "mv a d; cp b d/f", "git checkout x && echo y > f"]) {
      expect(run(c, ["Bash(ln:*)", "Bash(mv:*)", "Bash(cp:*)", "Bash(git:*)", "Bash(echo:*)", "Write(**)"]).reason, c).toMatch(/create or move a link first/);
    }
    expect(run("ln -s README.md r", ["Bash(ln:*)"]).decision).toBe("allow");
  });

  it("asks for a write in place through a hard link", () => {
    const outside = join(ws.base, "outside.txt");
    writeFileSync(outside, "o\n");
    linkSync(outside, join(ws.root, "shared.txt"));
    const d = run("echo x > shared.txt", ["Bash(echo:*)", "Write(**)"]);
    expect(d.decision).toBe("ask");
    expect(d.reason).toMatch(/hard link \(the file has 2 names\)/);
  });
});
