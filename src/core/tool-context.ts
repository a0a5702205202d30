// The context a tool runs in. Its side effects are events on the chain — `fs.read`,
// `fs.write`, `process.run`, `http.fetch` — so every hook (the path fence, the sandbox, an audit
// log) sees what any tool, built-in or plugin, does. `reads` and `shell` belong to the session:
// the loop passes the same objects to every call of a session.

import type { ReadRecord, ToolContext, ToolProgress } from "../contract/index.js";
import type { Chain } from "./chain.js";

export interface ToolContextOptions {
  root: string;
  sessionId: string;
  callId: string;
  /** Aborts the call (Ctrl-C); passed on to process.run and http.fetch unless they bring their own. */
  signal?: AbortSignal;
  /** Per-session memory of what was read (absolute path → record). A fresh map when omitted. */
  reads?: Map<string, ReadRecord>;
  /** Per-session shell state; the Bash tool's working directory starts at `root` when omitted. */
  shell?: { cwd: string };
  /** Where ToolContext.progress goes (the turn's stream); without it a tool has no `progress`. */
  progress?: (update: ToolProgress) => void;
  /** Where `ctx.keepOutput` keeps a call's whole output (the session store); none: null. */
  keepOutput?: (callId: string, text: string) => string | null;
}

export function createToolContext(chain: Chain, opts: ToolContextOptions): ToolContext {
  const signal = opts.signal ?? new AbortController().signal;
  return {
    root: opts.root,
    sessionId: opts.sessionId,
    callId: opts.callId,
    signal,
    fs: {
      // The call's id last: a tool cannot pass another call's (the fence trusts it).
      read: (req) => chain.dispatch({ type: "fs.read", ...req, callId: opts.callId }),
      write: (req) => chain.dispatch({ type: "fs.write", ...req, callId: opts.callId }),
    },
    run: (req) => chain.dispatch({ type: "process.run", ...req, signal: req.signal ?? signal, callId: opts.callId }),
    fetch: (req) => chain.dispatch({ type: "http.fetch", ...req, signal: req.signal ?? signal, callId: opts.callId }),
    reads: opts.reads ?? new Map(),
    shell: opts.shell ?? { cwd: opts.root },
    ...(opts.progress ? { progress: opts.progress } : {}),
    keepOutput: async (text) => {
      try {
        return opts.keepOutput?.(opts.callId, text) ?? null;
      } catch {
        return null; // a disk that refuses the file: the tool says the output was not kept
      }
    },
  };
}
