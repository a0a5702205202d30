// The tool contract: what a built-in, plugin or MCP tool implements, and the context it runs
// in. A tool never touches the disk, the shell or the network directly: every side effect goes
// through `ctx` and so through the chain (`fs.read`, `fs.write`, `process.run`, `http.fetch`),
// where the path fence and the sandbox sit downstream of every tool.

import type { JsonSchema, JsonValue } from "./wire.js";

export interface FileStat {
  size: number;
  mtimeMs: number;
  mode: number;
  isFile: boolean;
  isDirectory: boolean;
}

export interface FsReadRequest {
  /** Absolute path (tools resolve relative paths against the project root first). */
  path: string;
  /** Read at most this many bytes (the result says whether it stopped short). */
  maxBytes?: number;
  /** The tool call this read serves, set by the tool context (ctx.fs.read), never by the tool:
   *  the fence lets a secret through only when that call's own check named the file. */
  callId?: string;
}
export interface FsReadResult { data: Buffer; stat: FileStat; truncated: boolean }

export interface FsWriteRequest {
  path: string;
  data: string | Buffer;
  /** File mode for a new file; an existing file keeps its own. */
  mode?: number;
  /** Create missing parent folders. */
  createDirs?: boolean;
  /** The tool call this write serves, set by the tool context (ctx.fs.write), never by the
   *  tool: a front end that owns the call's session (`deepcode acp`) can route it. */
  callId?: string;
}
export interface FsWriteResult { stat: FileStat; created: boolean }

export interface ProcessRunRequest {
  /** Program and arguments, run without a shell (`["bash", "-c", cmd]` for a shell). */
  argv: string[];
  cwd: string;
  /** What a person would call this command (the Bash tool's `command`), for hooks and display. */
  command?: string;
  env?: Record<string, string>;
  /** The process gets exactly `env`, nothing of deepcode's own environment (the sandbox grants
   *  the environment this way); otherwise `env` is added to deepcode's. */
  clearEnv?: boolean;
  timeoutMs: number;
  /** Output kept per stream: head and tail, the middle cut with a marker. */
  maxOutputBytes?: number;
  stdin?: string;
  signal?: AbortSignal;
  /** Allow network access from inside the sandbox (when one is active). */
  network?: boolean;
  /** Called with the output (stdout and stderr) as it arrives, for a live view; what the
   *  result holds is unchanged. */
  onOutput?: (text: string) => void;
  /** Folders or files this run reads that the permission gate has already judged (a Grep's
   *  search path): a sandbox that starts from nothing shows them read-only, secrets masked. */
  grantRead?: readonly string[];
  /** Nothing may be written, the workspace included (plan mode): a sandbox, when one is
   *  active, binds every folder read-only but a private temp folder. */
  readOnly?: boolean;
  /** The tool call this run serves, set by the tool context (ctx.run), never by the tool; none
   *  for a run nobody's call asked for (a background job, doctor). */
  callId?: string;
  /** The command may run a server (a background job: `npm run dev`): a sandbox without network,
   *  when one is active, forwards each port it listens on (loopback or any address) from the
   *  host's loopback — 127.0.0.1:PORT, and ::1:PORT where there is IPv6 — into the sandbox,
   *  inbound only; a port already taken on the host is not bound (nothing is shadowed) and the
   *  output gets a line saying so. The listeners close when the run ends. Without a sandbox (or
   *  with its network) the command listens on the host itself and nothing is forwarded. */
  serve?: boolean;
  /** With `serve`: hears each port forwarded, refused (taken) or closed again. */
  onServe?: (notice: ServeNotice) => void;
}

/** What became of one port a serving command listens on (ProcessRunRequest.serve). */
export interface ServeNotice {
  port: number;
  /** forwarded: the host's loopback reaches it at `address`; taken: the host port is held by
   *  someone else, or cannot be had (`detail` says which), and nothing was bound; closed: it
   *  was forwarded and is no longer (the command stopped listening, or ended). */
  state: "forwarded" | "taken" | "closed";
  /** `http://127.0.0.1:PORT` when forwarded. */
  address?: string;
  detail?: string;
}
export interface ProcessRunResult {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  interrupted: boolean;
  durationMs: number;
  /** Bytes cut from stdout + stderr by the output bound. */
  truncatedBytes: number;
  /** Set when a sandbox hook wrapped the command (e.g. "bwrap"). */
  sandbox?: string;
}

/** A program deepcode itself starts from a person's configuration and then talks to or waits for
 *  on its own — a hook command, a stdio MCP server — as opposed to a tool's `process.run`. The
 *  spawner dispatches `process.launch` first and starts what comes back: the core answer
 *  returns the launch unchanged; a sandbox hook returns it wrapped (issue 35, item 5: a file a
 *  contained command rewrote never runs outside the sandbox). */
export interface ProcessLaunchRequest {
  /** Program and arguments, run without a shell. */
  argv: string[];
  cwd: string;
  /** Variables the configuration adds; the rest comes from deepcode's environment, unless
   *  `clearEnv`, when this is the whole environment (a stdio MCP server's, already composed). */
  env: Record<string, string>;
  clearEnv?: boolean;
  /** What it is, for people and for policy: a hook command, a stdio MCP server. */
  purpose: "hook" | "mcp";
  /** Which one, for messages: the hook's command, the server's name. */
  name: string;
  /** Files or folders outside the workspace its own configuration names (the script a hook
   *  runs, a plugin's root, the transcript its input points to): a sandbox shows them read-only. */
  readable?: string[];
  /** The person's own layers (user settings, the managed policy) asked for it to run without
   *  the sandbox (`"sandbox": false` on the hook or server); a project's files cannot ask. */
  unsandboxed?: boolean;
}
export interface ProcessLaunch {
  argv: string[];
  /** The whole environment to start it with. */
  env: Record<string, string>;
  /** Set when a sandbox wrapped it (e.g. "bwrap"). */
  sandbox?: string;
  /** Call once, when the process (and its group) has ended: a sandbox puts back what its guard
   *  watched and closes its channel. Returns lines for people (what was undone), often none. */
  ended(): string[];
}

/** One HTTP(S) request, one hop. The core answer never follows a redirect (a 3xx comes back
 *  with its `location` header, so the caller dispatches the next hop and every hook judges it
 *  again), and never connects to a loopback, link-local, private or otherwise non-public
 *  address unless a permission allow rule names that exact host (`WebFetch(domain:127.0.0.1)`):
 *  every address the host resolves to is checked, and the connection goes to the address that
 *  was checked (no second lookup for DNS rebinding to answer). A refusal is a DeniedError. */
export interface HttpFetchRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Keep at most this many bytes of the (decompressed) body; `truncated` says it was longer.
   *  Default 10 MB. */
  maxBytes?: number;
  /** The tool call this request serves, set by the tool context (ctx.fetch). */
  callId?: string;
}
export interface HttpFetchResult {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The body was cut at `maxBytes`. */
  truncated?: boolean;
  /** The IP address the request went to, or `via proxy HOST:PORT` when HTTPS_PROXY/HTTP_PROXY
   *  carried it (the proxy resolved the name; the address check ran on this machine's answer). */
  address?: string;
}

/** What Read recorded, so Write and Edit can refuse to clobber a file changed since. */
export interface ReadRecord { mtimeMs: number; size: number; hash: string }

export interface ToolContext {
  /** The workspace root; relative paths resolve against it. */
  readonly root: string;
  readonly sessionId: string;
  readonly callId: string;
  readonly signal: AbortSignal;
  readonly fs: {
    read(req: FsReadRequest): Promise<FsReadResult>;
    write(req: FsWriteRequest): Promise<FsWriteResult>;
  };
  run(req: ProcessRunRequest): Promise<ProcessRunResult>;
  fetch(req: HttpFetchRequest): Promise<HttpFetchResult>;
  /** Per-session memory of what was read (absolute path → record). */
  readonly reads: Map<string, ReadRecord>;
  /** Per-session shell state: the Bash tool's working directory persists across calls. */
  readonly shell: { cwd: string };
  /** Report how far a long call has got (an MCP server's progress notifications): shown on
   *  the tool's line while it runs (a `tool.progress` stream event). Absent where nobody
   *  watches (a call made outside a turn). */
  progress?(update: ToolProgress): void;
  /**
   * Keep the whole of an output the tool shows only part of (a long command log), in a file
   * beside the session (`<session>.outputs/<call id>.txt`, mode 0600); resolves to its absolute
   * path, which the Read tool may open without asking, or null where no session is stored
   * (tests, benchmarks) or the file could not be written. Say the path in the result.
   */
  keepOutput(text: string): Promise<string | null>;
}

export interface ToolProgress {
  message?: string;
  /** What the call has printed so far (its latest part, bounded by the tool): shown whole when
   *  the person asks to see the running call (the REPL's Ctrl-O), never on its line. */
  output?: string;
  /** Done so far, and the total when known (units are the tool's). */
  progress?: number;
  total?: number;
}

/** What a tool returns. `content` is what the model reads; the rest is for people. */
export interface ToolOutput {
  content: string;
  isError?: boolean;
  /** One line for the UI, e.g. `Read src/a.ts (120 lines)` or `Bash npm test → exit 0 (4.2 s)`. */
  summary?: string;
  /** Structured facts for renderers and hooks (a diff, an exit code, line counts). */
  meta?: Record<string, JsonValue>;
  /** Lines a person sees under the call's line in the REPL (TodoWrite's checklist); never sent
   *  to the model. Leave it out when there is nothing new to show. */
  display?: string;
  /** The tool bounded this result itself, to a limit the person set for it (MCP's
   *  `MAX_MCP_OUTPUT_TOKENS`): the log keeps up to this many bytes of it where that is more
   *  than `toolResultMaxBytes` (the engine's bound still applies to anything longer). */
  maxBytes?: number;
}

export interface ToolSpec<I = Record<string, unknown>> {
  /** `[a-zA-Z0-9_-]{1,64}`, the API's rule for function names. */
  name: string;
  description: string;
  inputSchema: JsonSchema;
  /** The tool changes nothing: the permission gate allows it by default (a mutating tool asks).
   *  It also runs concurrently with its read-only neighbours unless `concurrent` says otherwise. */
  readOnly: boolean;
  /** Scheduling only, never permission: the call may run at the same time as neighbouring
   *  concurrent calls (default: `readOnly`). A tool that asks by default but is safe to run in
   *  parallel (an MCP tool whose server says `readOnlyHint`) sets this without `readOnly`. */
  concurrent?: boolean;
  /** Kept out of the tool list (the cached prefix every request pays for): the model calls it
   *  through the UseTool proxy. The text, when not empty, is its one line in a short system
   *  section listing such tools (`WebFetch {url, prompt}: a web page as text`); when empty the
   *  tool's owner tells the model about it where it matters (a notebook's Read names
   *  NotebookEdit; the background Bash result names BashOutput and KillShell). It is a registered
   *  tool like any other (permission rules, hooks and agent files name it; a direct call by name
   *  works too) and is never announced as a late tool. For tools most sessions never use. */
  onDemand?: string;
  /** The tool may go into the on-demand index (src/lib/tool-index.ts) instead of the prefix's
   *  tool list, where a mod decides a session has too many tools to send each in full (the MCP
   *  mod, past `mcpToolIndexTokens`). A late-arriving one is then announced by name and one line
   *  only; `UseTool {"name"}` gives its definition. */
  deferrable?: boolean;
  run(input: I, ctx: ToolContext): Promise<ToolOutput>;
  /** What a person sees before approving this call: a diff for an edit, the command for a
   *  shell. Without it the prompt shows the arguments. Must not change anything. */
  preview?(input: I, ctx: ToolContext): Promise<string>;
  /** Why the call would fail whatever the person answers, known before asking (a Write over a
   *  file not read in this session): the call is not asked about and its result is this error,
   *  as the tool would give it. Undefined when it may succeed (or cannot tell: a throw counts
   *  as undefined). Asked only where the gate would ask; must not change anything. */
  refusal?(input: I, ctx: ToolContext): Promise<string | undefined>;
}

/** Claude Code's other names for tools deepcode has: a permission rule or a hook matcher
 *  written with either name sees the call (Claude Code renamed Task to Agent; both are in use). */
export const TOOL_ALIASES: Readonly<Record<string, readonly string[]>> = { Task: ["Agent"], Agent: ["Task"] };

/** Claude Code tools deepcode answers with one of its own: an agent file's `tools:` listing the
 *  key gets the value, and a call by the key's name runs the value (src/core/engine/standins.ts)
 *  — Claude Code's LS lists a folder, which Glob does; NotebookRead became Read, which shows a
 *  notebook's cells; MultiEdit is Edit once per edit. */
export const TOOL_STANDINS: Readonly<Record<string, string>> = { LS: "Glob", NotebookRead: "Read", MultiEdit: "Edit" };

/** The tool's name and the other names it is known by. */
export function toolNames(tool: string): readonly string[] {
  const more = TOOL_ALIASES[tool];
  return more ? [tool, ...more] : [tool];
}

/** A tool as the engine knows it: the spec plus where it came from. */
export interface RegisteredTool {
  spec: ToolSpec;
  /** "builtin", a plugin id, or "mcp:<server>". */
  source: string;
}
