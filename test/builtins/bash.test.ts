import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BASH_MAX_OUTPUT_CHARS } from "../../src/builtins/bash.js";
import { alive, eventually, session, writeTree } from "./helpers.js";

describe("Bash runs commands with bash -c", () => {
  it("returns stdout, and a summary with the exit code and duration", async () => {
    const s = session();
    const r = await s.call("Bash", { command: "echo hello" });
    expect(r.content).toBe("hello");
    expect(r.isError).toBeFalsy();
    expect(r.summary).toMatch(/^Bash echo hello → exit 0 \(\d+\.\d s\)$/);
    expect(r.meta).toMatchObject({ exitCode: 0, timedOut: false });
  });

  it("shows stderr after stdout and names a non-zero exit code", async () => {
    const s = session();
    const r = await s.call("Bash", { command: "echo out; echo err >&2; exit 3" });
    expect(r.content).toBe("out\n[stderr]\nerr\n[exit code 3]");
    expect(r.isError).toBe(true);
    expect(r.summary).toContain("→ exit 3");
  });

  it("says when there was no output", async () => {
    const s = session();
    expect((await s.call("Bash", { command: "true" })).content).toBe("(no output)");
  });

  it("starts in the project root and keeps the working directory across calls", async () => {
    const s = session();
    writeTree(s.root, { "sub/dir/f.txt": "x" });
    expect((await s.call("Bash", { command: "pwd" })).content).toBe(s.root);
    await s.call("Bash", { command: "cd sub/dir" });
    const r = await s.call("Bash", { command: "pwd; ls" });
    expect(r.content).toBe(`${join(s.root, "sub/dir")}\nf.txt`);
    expect(s.shell.cwd).toBe(join(s.root, "sub/dir"));
  });

  it("keeps output that does not end with a newline as it is", async () => {
    const s = session();
    const r = await s.call("Bash", { command: "printf 'a\\nb'" });
    expect(r.content).toBe("a\nb");
  });

  it("keeps the previous directory when the command exits early", async () => {
    const s = session();
    writeTree(s.root, { "sub/x": "" });
    await s.call("Bash", { command: "cd sub" });
    await s.call("Bash", { command: "cd /; exit 0" });
    expect((await s.call("Bash", { command: "pwd" })).content).toBe(join(s.root, "sub"));
  });

  it("keeps the start, the end and the errors in between of long output, and the whole of it in a file", async () => {
    const kept: Array<{ id: string; text: string }> = [];
    const s = session({ keepOutput: (id, text) => (kept.push({ id, text }), `/sessions/x.outputs/${id}.txt`) });
    const r = await s.call("Bash", { command: "seq 1 100000 | sed 's/^50000$/Error: disk full at 50000/'" });
    const lines = r.content.split("\n");
    expect(lines.slice(0, 3)).toEqual(["1", "2", "3"]);
    expect(r.content).toContain("\nError: disk full at 50000\n");
    expect(lines.at(-2)).toBe("100000");
    expect(lines.at(-1)).toMatch(/^\[all 100,000 lines: Read \/sessions\/x\.outputs\/call-1\.txt\]$/);
    expect(r.content.length).toBeLessThan(BASH_MAX_OUTPUT_CHARS + 300);
    expect(kept).toHaveLength(1);
    expect(kept[0].text.split("\n")).toHaveLength(100_000);
  });

  it("says how to see the rest when no session keeps the whole output", async () => {
    const r = await session().call("Bash", { command: "seq 1 100000" });
    expect(r.content.split("\n").at(-1)).toMatch(/lines left out; rerun the command narrowed \(grep, tail\) to see them\]$/);
  });

  it("counts the passing lines of a test run and shows its failures and summary", async () => {
    const kept: string[] = [];
    const s = session({ keepOutput: (_id, text) => (kept.push(text), "/kept.txt") });
    const script = "for i in $(seq 1 300); do if [ $i = 120 ]; then echo \"not ok $i - rounds cents\"; echo '  # expected 1, got 2'; else echo \"ok $i - case $i\"; fi; done; echo '# 300 tests, 299 passed, 1 failed'; exit 1";
    const r = await s.call("Bash", { command: script });
    expect(r.content).toBe(
      ["[… 119 passing lines …]", "not ok 120 - rounds cents", "  # expected 1, got 2", "[… 180 passing lines …]", "# 300 tests, 299 passed, 1 failed", "[all 302 lines: Read /kept.txt]", "[exit code 1]"].join("\n"),
    );
    expect(kept[0]).toContain("ok 1 - case 1\n");
  });

  it("shows a short output whole, passing lines and all", async () => {
    const r = await session({ keepOutput: () => "/never" }).call("Bash", { command: "for i in 1 2 3 4 5 6; do echo \"ok $i - fine\"; done" });
    expect(r.content).toBe("ok 1 - fine\nok 2 - fine\nok 3 - fine\nok 4 - fine\nok 5 - fine\nok 6 - fine");
  });

  it("kills the whole process tree on timeout, grandchildren included", async () => {
    const s = session();
    const pidFile = join(s.root, "pids");
    const command = `sleep 100 & echo $! > ${pidFile}; sleep 100 & echo $! >> ${pidFile}; wait`;
    const r = await s.call("Bash", { command, timeout: 1500 });
    expect(r.isError).toBe(true);
    expect(r.meta).toMatchObject({ timedOut: true });
    expect(r.content).toContain("timed out after 1.5 s");
    expect(r.summary).toContain("timed out");
    const pids = readFileSync(pidFile, "utf8").trim().split("\n").map(Number);
    expect(pids).toHaveLength(2);
    expect(await eventually(() => pids.every((p) => !alive(p)))).toBe(true);
  });

  it("kills the whole process tree when the call is aborted", async () => {
    const s = session();
    const pidFile = join(s.root, "pids");
    const ac = new AbortController();
    const running = s.call("Bash", { command: `sleep 100 & echo $! > ${pidFile}; sleep 100; wait` }, ac.signal);
    await eventually(() => {
      try {
        return readFileSync(pidFile, "utf8").trim() !== "";
      } catch {
        return false;
      }
    });
    ac.abort();
    const r = await running;
    expect(r.meta).toMatchObject({ interrupted: true });
    expect(r.content).toContain("interrupted");
    const pid = Number(readFileSync(pidFile, "utf8").trim());
    expect(await eventually(() => !alive(pid))).toBe(true);
  });

  it("returns when the command ends even if a background child still holds its output open", async () => {
    const s = session();
    const pidFile = join(s.root, "bg");
    const r = await s.call("Bash", { command: `sleep 30 & echo $! > ${pidFile}; echo done` });
    expect(r.content).toBe("done");
    process.kill(Number(readFileSync(pidFile, "utf8")), "SIGKILL"); // it would otherwise live until deepcode exits
  });

  it("gives commands no stdin and no pager", async () => {
    const s = session();
    const r = await s.call("Bash", { command: "cat; echo \"pager=$PAGER\"" });
    expect(r.content).toBe("pager=cat");
  });
});
