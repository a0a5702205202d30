// Claude Code's statusLine setting in the REPL: the command gets the session's facts as JSON
// on stdin and its first line is shown (with its padding); it runs at most once per 300 ms; a
// command that fails or hangs is stopped and said once, never silently dropped.
import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Chain } from "../../src/core/chain.js";
import { customStatusLine, StatusCommand, statusCommandOf } from "../../src/cli/repl/status-command.js";
import type { JsonValue } from "../../src/contract/index.js";

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A chain whose process.launch starts the command as asked (no sandbox here), with a home of
 *  its own (the person's shell start-up files stay out of it). */
function chain(home: string): Chain {
  const c = new Chain();
  c.setCore("process.launch", (e) => ({ argv: [...e.argv], env: { PATH: process.env.PATH ?? "", HOME: home }, ended: () => [] }));
  return c;
}

function app(statusLine: JsonValue): { chain: Chain; root: string; settings: { merged: Record<string, JsonValue> } } {
  dir = mkdtempSync(join(tmpdir(), "deepcode-statusline-"));
  return { chain: chain(dir), root: dir, settings: { merged: { statusLine } } };
}

describe("the statusLine command", () => {
  it("gets the session's facts as JSON on stdin and shows its first line after the padding", async () => {
    const a = app({ type: "command", command: "cat > input.json; echo '[deepseek] main'; echo 'second line'", padding: 2 });
    const shown: string[] = [];
    const warned: string[] = [];
    const show = customStatusLine(a, (l) => shown.push(l), (l) => warned.push(l))!;
    await show("sess-1", "deepseek-flash", 0.0123);
    expect(shown).toEqual(["  [deepseek] main"]);
    expect(warned).toEqual([]);
    const input = JSON.parse(readFileSync(join(a.root, "input.json"), "utf8"));
    expect(input).toMatchObject({ session_id: "sess-1", cwd: a.root, model: { id: "deepseek-flash" }, workspace: { current_dir: a.root }, cost: { total_cost_usd: 0.0123 } });
  });

  it("runs at most once in 300 ms, showing the last line again", async () => {
    const a = app({ type: "command", command: "echo run >> runs.log; echo ok" });
    const shown: string[] = [];
    const show = customStatusLine(a, (l) => shown.push(l), () => undefined)!;
    await show("s", "m", 0);
    await show("s", "m", 0);
    expect(shown).toEqual(["ok", "ok"]);
    expect(readFileSync(join(a.root, "runs.log"), "utf8").trim().split("\n")).toHaveLength(1);
  });

  it("says once that the command fails, with its status and first error line, and shows nothing", async () => {
    const a = app({ type: "command", command: "echo 'jq: not found' >&2; exit 3" });
    const shown: string[] = [];
    const warned: string[] = [];
    const cmd = new StatusCommand(statusCommandOf(a.settings.merged.statusLine).config!, a.chain, a.root, (l) => warned.push(l));
    for (let i = 0; i < 2; i++) {
      const line = await cmd.line({ sessionId: "s", cwd: a.root, model: "m", version: "t", costUsd: 0, durationMs: 0 });
      if (line) shown.push(line);
      await new Promise((r) => setTimeout(r, 350));
    }
    expect(shown).toEqual([]);
    expect(warned).toEqual(["statusLine `echo 'jq: not found' >&2; exit 3`: exited with status 3 (jq: not found); the custom status line is left out until it works"]);
  });

  it("stops a command that does not answer in time and says so", async () => {
    const a = app({ type: "command", command: "sleep 60" });
    const warned: string[] = [];
    const cmd = new StatusCommand(statusCommandOf(a.settings.merged.statusLine).config!, a.chain, a.root, (l) => warned.push(l), 500);
    const started = Date.now();
    expect(await cmd.line({ sessionId: "s", cwd: a.root, model: "m", version: "t", costUsd: 0, durationMs: 0 })).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(warned.join("\n")).toMatch(/statusLine `sleep 60`: no answer within 1 s \(stopped\)/);
  });

  it("names a statusLine setting it cannot use instead of dropping it", () => {
    const warned: string[] = [];
    expect(customStatusLine(app({ type: "static", text: "hi" }), () => undefined, (l) => warned.push(l))).toBeUndefined();
    expect(warned.join("\n")).toMatch(/statusLine \{"type":"static","text":"hi"\} is not \{"type": "command", "command": "…"\}; no custom status line is shown/);
  });
});
