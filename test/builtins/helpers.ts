// Shared set-up for the built-in tool tests: a temp project, a chain with the core effects,
// and a context the way the loop builds one (one `reads` map and one shell per session).
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach } from "vitest";
import { builtinTools } from "../../src/builtins/index.js";
import type { ReadRecord, ToolContext, ToolOutput, ToolSpec } from "../../src/contract/index.js";
import { Chain } from "../../src/core/chain.js";
import { registerEffects } from "../../src/core/effects.js";
import { createToolContext } from "../../src/core/tool-context.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A fresh temp folder (real path, so results compare equal), removed after the test. */
export function tempDir(prefix = "deepcode-builtins-"): string {
  const d = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  dirs.push(d);
  return d;
}

/** Write files (path → content) below root, creating folders. */
export function writeTree(root: string, files: Record<string, string | Buffer>): void {
  for (const [p, content] of Object.entries(files)) {
    const abs = join(root, p);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }
}

export interface Session {
  root: string;
  chain: Chain;
  reads: Map<string, ReadRecord>;
  shell: { cwd: string };
  tools: Map<string, ToolSpec>;
  ctx(signal?: AbortSignal): ToolContext;
  call(tool: string, input: Record<string, unknown>, signal?: AbortSignal): Promise<ToolOutput>;
}

export function session(opts: { root?: string; rgPath?: string | null; keepOutput?: (callId: string, text: string) => string | null } = {}): Session {
  const root = opts.root ?? tempDir();
  const chain = new Chain();
  registerEffects(chain);
  const reads = new Map<string, ReadRecord>();
  const shell = { cwd: root };
  const tools = new Map(builtinTools({ rgPath: opts.rgPath }).map((t) => [t.name, t]));
  let n = 0;
  const ctx = (signal?: AbortSignal): ToolContext =>
    createToolContext(chain, { root, sessionId: "test", callId: `call-${++n}`, signal, reads, shell, keepOutput: opts.keepOutput });
  return {
    root,
    chain,
    reads,
    shell,
    tools,
    ctx,
    call: (tool, input, signal) => tools.get(tool)!.run(input, ctx(signal)),
  };
}

/** Whether a process is still running (a zombie waiting to be reaped counts as gone). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return true; // no /proc (macOS): kill -0 said it exists
  }
}

/** Poll until `check` holds or `ms` pass; returns the last result. */
export async function eventually(check: () => boolean, ms = 60_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}
