import { describe, expect, it } from "vitest";
import { parseShell } from "../../src/cli/permissions/index.js";

const ctx = { cwd: "/ws", home: "/home/me" };
const names = (cmd: string): string[] => parseShell(cmd, ctx).parts.filter((p) => p.words.length > 0).map((p) => p.name);
const words = (cmd: string): string[][] => parseShell(cmd, ctx).parts.map((p) => p.words.map((w) => w.value));
const unsure = (cmd: string): string[] => {
  const r = parseShell(cmd, ctx);
  return [...r.unsure, ...r.parts.flatMap((p) => p.unsure)];
};

describe("the shell parser splits a line into the commands bash would run", () => {
  it("splits on &&, ||, ;, |, |&, & and newlines", () => {
    expect(names("a && b || c; d & e | f |& g\nh")).toEqual(["a", "b", "c", "d", "e", "f", "g", "h"]);
  });

  it("finds commands inside $(…), backticks, <(…), subshells, groups and control structures", () => {
    expect(names("echo $(a) `b` <(c) >(d); (e); { f; }; if g; then h; elif i; then j; else k; fi; while l; do m; done")).toEqual([
      "a", "b", "c", "d", "echo", "e", "f", "g", "h", "i", "j", "k", "l", "m",
    ]);
  });

  it("peels wrappers and shells to the command that runs", () => {
    expect(names("sudo -u bob env A=1 nice -n 5 timeout -k 1 10 nohup time -p command git status")).toEqual(["git"]);
    expect(names("bash -c 'a; b' && sh -ec \"c\" && eval 'd | e'")).toEqual(["a", "b", "c", "d", "e"]);
    expect(names("find . -name x -exec grep -l y {} +")).toEqual(["find", "grep"]);
    expect(names("ls | xargs -0 -n1 wc -l")).toEqual(["ls", "wc"]);
  });

  it("removes quotes the way bash does", () => {
    expect(words(`printf 'a b' "c \\"d\\" \\$e" $'f\\tg' h\\ i "" ''`)).toEqual([["printf", "a b", 'c "d" $e', "f\tg", "h i", "", ""]]);
  });

  it("decodes ANSI-C escapes: hex, octal, unicode and control characters", () => {
    expect(words(`x $'\\x41\\101\\u00e9\\cA\\''`)).toEqual([["x", "AAé\x01'"]]);
  });

  it("keeps leading assignments apart from the command", () => {
    const p = parseShell("A=1 B+=2 C[0]=3 make all", ctx).parts[0];
    expect(p.assigns).toEqual(["A", "B", "C"]);
    expect(p.name).toBe("make");
  });

  it("ignores comments and joins continued lines", () => {
    expect(words("ls # rm -rf /\necho a\\\nb")).toEqual([["ls"], ["echo", "ab"]]);
  });

  it("does not treat < and > inside [[ ]] as redirections", () => {
    const p = parseShell("[[ a < b && c > d ]]", ctx).parts[0];
    expect(p.redirects).toEqual([]);
    expect(p.name).toBe("[[");
  });
});

describe("redirections", () => {
  const redirects = (cmd: string) => parseShell(cmd, ctx).parts[0].redirects.map((r) => ({ op: r.op, fd: r.fd, target: r.target?.value, write: r.write, read: r.read }));

  it("marks writes and reads, and leaves fd duplications and here-strings alone", () => {
    expect(redirects("cmd > a 2>> b &> c >| d 2>&1 >&2 < e <<< f 3<> g >& h")).toEqual([
      { op: ">", fd: null, target: "a", write: true, read: false },
      { op: ">>", fd: "2", target: "b", write: true, read: false },
      { op: "&>", fd: null, target: "c", write: true, read: false },
      { op: ">|", fd: null, target: "d", write: true, read: false },
      { op: ">&", fd: "2", target: "1", write: false, read: false },
      { op: ">&", fd: null, target: "2", write: false, read: false },
      { op: "<", fd: null, target: "e", write: false, read: true },
      { op: "<<<", fd: null, target: "f", write: false, read: false },
      { op: "<>", fd: "3", target: "g", write: true, read: true },
      { op: ">&", fd: null, target: "h", write: true, read: false },
    ]);
  });

  it("reads a quoted here-document's body as text, and an unquoted one's substitutions as commands", () => {
    expect(names("cat <<'EOF'\n$(rm x)\nEOF\nls")).toEqual(["cat", "ls"]);
    expect(unsure("cat <<'EOF'\n$(rm x)\nEOF\nls")).toEqual([]);
    expect(names("cat <<EOF\n$(rm x)\nEOF")).toContain("rm");
    expect(unsure("cat <<EOF\n$(rm x)\nEOF")).toContain("a here-document contains substitutions");
    expect(names("cat <<-EOF\n\thello\n\tEOF\nls")).toEqual(["cat", "ls"]);
  });
});

describe("the working folder", () => {
  const cwds = (cmd: string) => parseShell(cmd, ctx).parts.map((p) => [p.name, p.cwd.unknown ? "?" : p.cwd.dirs.join(",")]);

  it("adds each cd's target to the folders a later command may run in (the cd may fail)", () => {
    expect(cwds("cd src && ls; cd /tmp; pwd")).toEqual([
      ["cd", "/ws"],
      ["ls", "/ws,/ws/src"],
      ["cd", "/ws,/ws/src"],
      ["pwd", "/ws,/ws/src,/tmp"],
    ]);
  });

  it("does not leak a cd out of a subshell, a pipeline element, a substitution or a background job", () => {
    expect(cwds("(cd /a); cd /b | cat; echo $(cd /c); cd /d & pwd").at(-1)).toEqual(["pwd", "/ws"]);
  });

  it("lets eval's cd leak, since eval runs in the same shell", () => {
    expect(cwds("eval 'cd /e'; pwd").at(-1)).toEqual(["pwd", "/ws,/e"]);
  });

  it("gives up on the folder after a cd it cannot resolve", () => {
    expect(cwds("cd $DIR; pwd").at(-1)).toEqual(["pwd", "?"]);
    expect(cwds("cd -; pwd").at(-1)).toEqual(["pwd", "?"]);
    expect(cwds("cd; pwd").at(-1)).toEqual(["pwd", "/ws,/home/me"]);
  });
});

describe("what the parser will not guess", () => {
  const cases: Array<[string, RegExp]> = [
    ["$CMD x", /command name is computed at run time/],
    ["echo 'open", /unbalanced single quote/],
    ["echo \"open", /unbalanced double quote/],
    ["echo `open", /unbalanced backtick/],
    ["echo $(open", /unbalanced \$\(/],
    ["(ls", /unbalanced '\('/],
    ["ls )", /unbalanced '\)'/],
    ["cat <(ls)", /process substitution/],
    ["echo $((1+1))", /arithmetic expansion/],
    ["(( i++ ))", /arithmetic command/],
    ["case $x in a) ls;; esac", /case statement/],
    ["f() { ls; }", /function definition/],
    ["cat <<EOF\nno end", /not terminated/],
    ["env -S 'a b'", /env -S/],
    ["sudo -s ls", /through a shell/],
    ["timeout --bogus 5 ls", /unknown option --bogus of 'timeout'/],
    ["ｌｓ", /non-ASCII character in the command name/],
    ["ls\u200b", /invisible/],
    ["eval \"$X\"", /eval of text expanded at run time/],
  ];
  for (const [cmd, reason] of cases) {
    it(`is unsure about ${JSON.stringify(cmd)}`, () => {
      expect(unsure(cmd).join("; ")).toMatch(reason);
    });
  }

  it("gives up past a nesting depth instead of recursing forever", () => {
    let cmd = "ls";
    for (let i = 0; i < 12; i++) cmd = `bash -c ${JSON.stringify(cmd)}`;
    expect(unsure(cmd).join("; ")).toMatch(/nested too deeply/);
  });

  it("is sure about ordinary commands", () => {
    for (const cmd of ["npm test -- --grep 'a b'", "git log --oneline | head -20", "grep -rn \"TODO\" src | wc -l", "[ -d x ] || mkdir -p x", "ls *.ts"]) {
      expect(unsure(cmd), cmd).toEqual([]);
    }
  });
});
