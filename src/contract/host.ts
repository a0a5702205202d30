// What a plugin may read of the deepcode it runs in: the settings in force and the facts of this
// run (PluginApi.settings, PluginApi.host), what plugins report of themselves (typed status),
// the subcommands they add to `deepcode <name>`, and where they ask to be placed on the chain.
// Built-in mods configure themselves from these, like any plugin: assembly computes nothing
// for them.

import type { JsonValue } from "./wire.js";
import type { TurnProfile } from "./events.js";
import type { StreamEvent } from "./stream.js";
import type { ChatMessage } from "./wire.js";

/** One settings file as it was read: `name` is its layer (`user`, `project`, `local`, `flag`,
 *  `managed`; the managed policy has one per file), `settings` its known keys (frozen). */
export interface SettingsLayerView {
  readonly name: string;
  readonly file: string;
  readonly settings: Readonly<Record<string, JsonValue>>;
}

/** The settings in force, read-only: an untrusted project's loosening parts are already left
 *  out. `get` is the merged value (a later layer wins; objects merge one level); `layers` are
 *  the files in merge order (low to high, the managed policy last) for a mod whose setting only
 *  some layers may give (telemetry: only the person's own file turns it on). */
export interface SettingsView {
  get(key: string): JsonValue | undefined;
  readonly layers: readonly SettingsLayerView[];
  /** The file the merged value of `key` came from (the highest layer that sets it), for errors. */
  fileOf(key: string): string | undefined;
}

/** What the person asked for on the command line that a plugin may act on. */
export interface RunFlags {
  /** `--permission-mode plan`: every turn of this run plans. */
  readonly planMode: boolean;
  /** `--mcp-config FILE|JSON` (repeatable) and `--strict-mcp-config`. */
  readonly mcpConfig: readonly string[];
  readonly strictMcpConfig: boolean;
}

/** Facts of this run, the same for every plugin. */
export interface HostFacts {
  /** deepcode's version (what `deepcode --version` prints). */
  readonly version: string;
  /** A person is at the terminal (the REPL); false for `-p` and subcommands. */
  readonly interactive: boolean;
  /** The folder this project's sessions are kept in (transcripts, per-session state). */
  readonly sessionsDir: string;
  /** The environment deepcode started with (what child processes inherit, before scrubbing). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Environment variables that hold deepcode's own keys: never pass them to a child process. */
  readonly secretEnv: readonly string[];
  /** A DeepSeek API key was found (the environment or `deepcode setup`); never the key itself.
   *  Absent: the host does not say. */
  readonly hasKey?: boolean;
  /** Folders outside the project the person opened to the tools (`permissions.additionalDirectories`). */
  readonly additionalDirectories: readonly string[];
  readonly flags: RunFlags;
  /** The model ids deepcode knows (its capability table). */
  readonly models: readonly string[];
  /** The session's model at start (`-m`, settings `model`, or the default). */
  readonly model: string;
  /** The four cost tiers' profiles (chat-fast, chat-full, reasoner-budget, reasoner), after
   *  settings `tiers`: what a mod that names a tier (the planner) runs. */
  readonly tiers: Readonly<Record<string, TurnProfile>>;
}

/** Where a plugin asks to go. `tier` is honoured only for deepcode's own mods: a third-party
 *  plugin's tier is its loader's (settings plugins: user; the managed policy's: prepend or
 *  append), whatever it declares. `before`/`after` name other plugins' ids or assembly's own
 *  named steps (`permission-gate`, `cost`, `non-interactive`, `repairs`, `agent-spawn`), and
 *  order registration — so the order of hooks within a tier — among what loads in one list. An
 *  impossible order (a circle) fails loudly at start, naming the circle. */
export interface Placement {
  readonly tier?: "prepend" | "user" | "append" | "builtin";
  readonly before?: readonly string[];
  readonly after?: readonly string[];
}

/** `deepcode <name> args…` contributed by a plugin (PluginApi.subcommand). */
export interface SubcommandSpec {
  /** `[a-z][a-z0-9-]*`; a name deepcode's own subcommands have is refused. */
  name: string;
  /** One line for `deepcode --help`. */
  description: string;
  /** The argument synopsis, printed by `deepcode <name> --help` with the description. */
  usage?: string;
  /** Runs with the words after the name; resolves to the exit code. A thrown UsageError exits 2
   *  with its message; any other error exits 1 with its message. */
  run(args: readonly string[], ctx: SubcommandContext): number | Promise<number>;
}

export interface SubcommandContext {
  /** Text for standard output / standard error (the subcommand's own output). */
  out(text: string): void;
  err(text: string): void;
  /** Aborts on Ctrl-C (SIGINT) or SIGTERM. */
  readonly signal: AbortSignal;
  /** Ask the person at the terminal a yes/no question; false when nobody can answer. */
  confirm(question: string): Promise<boolean>;
  /** Open a stored session of this project (`deepcode sessions` lists them) as the running one,
   *  so that events naming its id reach its own core answers — `context.rewind`, the log — as in
   *  a live session; nobody is asked anything (a subcommand runs non-interactively). It takes the
   *  session's writer lock: rejects, saying why, when the session does not exist or another
   *  deepcode is writing it. `close()` ends it (the session stays resumable: `deepcode -r ID`);
   *  whatever is still open when `run` returns is closed for the plugin. */
  resumeSession(sessionId: string): Promise<ResumedSession>;
}

/** A stored session opened by a subcommand (SubcommandContext.resumeSession). */
export interface ResumedSession {
  readonly sessionId: string;
  close(): Promise<void>;
}

/** The shapes deepcode's own mods report through PluginApi.status, for the readers that need
 *  them (the REPL, stream-json's init line, the permission gate). A third-party plugin's report
 *  is any JSON. */
export interface KnownStatus {
  /** mods/mcp: every configured server and its state. */
  mcp: { servers: Array<{ name: string; status: string; tools: number; scope?: string }> };
  /** mods/plan: whether this run (its latest session) is planning, or waiting for the person to
   *  approve a plan; `planningIn`: every session planning now (a front end with several). */
  plan: { planning: boolean; awaiting: boolean; planner: string; plannerTier?: string; planningIn?: string[] };
  /** mods/sandbox: whether every process is wrapped (`active`), by what, and whether it may
   *  reach the network. Only an active sandbox without network contains a command.
   *  `allowedDomains` (with `network: false`): the hosts (`example.com`, `*.example.com`,
   *  `host:port`) commands reach through deepcode's filtering proxy — settings
   *  `sandbox.network.allowedDomains`; absent or empty, none. `autoAllow`: settings
   *  `sandbox.autoAllowBashIfSandboxed` as the layers decide it (on unless some layer says
   *  false) — the one fact the gate reads to let a contained command run without a prompt.
   *  `served`: the ports background jobs' servers are forwarded at on the host's loopback now
   *  (ProcessRunRequest.serve): a later command reaches them, and WebFetch to
   *  127.0.0.1/localhost/[::1] at one of them runs without a question. */
  sandbox: {
    active: boolean;
    mechanism: string | null;
    network: boolean;
    allowedDomains?: readonly string[];
    grants?: SandboxGrants;
    autoAllow?: boolean;
    served?: readonly number[];
    /** When not active: why (`detail`), what protects the person on this platform instead
     *  (`uncontained`), and how to get commands contained (`fix`, where something can be done). */
    detail?: string;
    uncontained?: string;
    fix?: string;
    /** Settings require the sandbox (`sandbox.failIfUnavailable`): the file that says so. Not
     *  active and required: the gate denies every command, and none runs. */
    required?: string;
  };
  /** mods/marketplace: the enabled, verified Claude Code plugins and the parts others run:
   *  their hooks (the hooks mod), MCP servers (the mcp configuration), native module (`native`:
   *  its absolute path; assembly loads it, in the user tier or prepend for `managed`), and
   *  `commands`: their command folders and files for the custom-command loader (`prefix` the
   *  plugin's name, `pins` the installed files' sha256 by path, `vars` CLAUDE_PLUGIN_ROOT …). `managed`: the managed policy
   *  enables it (its hooks run in the prepend tier). `hooks.env`: the variables its hook
   *  commands get (CLAUDE_PLUGIN_ROOT …). */
  marketplace: {
    plugins: Array<{
      id: string;
      managed: boolean;
      hooks: { files: string[]; hooks: { [key: string]: JsonValue }; env: { [key: string]: string } } | null;
      servers: Array<{ name: string; file: string; config: { [key: string]: JsonValue } }>;
      native: string | null;
    }>;
    commands: Array<{ plugin: string; prefix: string; dir?: string; file?: string; pins: { [path: string]: string }; vars: { [name: string]: string } }>;
  };
}

/** What an active sandbox gives a command (mods/sandbox/grant.ts, env.ts): the folders it sees
 *  (real paths; everything else is not there), the private home at the person's $HOME path, and
 *  the environment it gets. The permission gate reads `readOnly`, `write` and `walked` to tell
 *  which secret reads a contained command cannot make (src/cli/permissions/containment/sandbox-view.ts). */
export interface SandboxGrants {
  /** Granted read-only: the system, the toolchains, installed plugins' files, `allowRead`. */
  readOnly: readonly string[];
  /** Granted read-write: the workspace, additionalDirectories, `allowWrite`. */
  write: readonly string[];
  /** The folders whose secret files the sandbox finds and hides (src/lib/secret-walk.ts). */
  walked: readonly string[];
  /** The private home (in deepcode's home), shown at `home`. */
  privateHome: string;
  home: string;
  /** Variables withheld as credentials (names only), and how many others nothing grants. */
  withheldEnv: readonly string[];
  droppedEnv: number;
}

/** The ids of KnownStatus: only deepcode's own mods report under them (a plugin that tries
 *  is refused, so none can speak for the sandbox or plan mode). */
export const KNOWN_STATUS_IDS: readonly (keyof KnownStatus)[] = ["mcp", "plan", "sandbox", "marketplace"];

/** What reading a status gives: the known shape for deepcode's mods, else JSON. */
export type StatusOf<K extends string> = K extends keyof KnownStatus ? KnownStatus[K] : JsonValue;

/** One engine session a plugin drives (PluginApi.sessions): the same engine, chain, gate,
 *  sandbox and session file as the REPL's and `-p`'s — no second loop. */
/** A slash command a session takes (SessionHandle.commands). */
export interface SessionCommand {
  name: string;
  description: string;
  /** What its arguments are, when it says. */
  hint?: string;
}

export interface SessionHandle {
  /** The session's id (what `deepcode sessions` lists and `-r` resumes). */
  readonly id: string;
  /** Opened from disk (`resume`) rather than started here. */
  readonly resumed: boolean;
  /** Run one turn with this prompt, as if the person had typed it at the REPL (mentions
   *  expand). The stream ends with exactly one `turn.complete`; aborting `signal` stops the
   *  turn as Ctrl-C does (stopReason `interrupted`, what happened kept). One turn at a time. */
  submit(prompt: string, options?: { signal?: AbortSignal; print?: (text: string) => void }): AsyncIterable<StreamEvent>;
  /** What a prompt may start with (`/name args`): custom commands (project, person, enabled
   *  plugins) and the commands mods contribute (skills, MCP prompts, /mcp, /plan). Such a
   *  prompt runs the command as the REPL does (not interactive: nothing asks the person through
   *  it); what it shows goes to submit's `print`, the prompt it makes runs as turns on the
   *  stream — none when it only shows something, so no `turn.complete` then. */
  commands(): readonly SessionCommand[];
  /** Resolves once command names that appear late (an MCP server's prompts, when its server
   *  has connected) have appeared, bounded by each command's `settle`; then `commands()`
   *  lists them. */
  commandsSettled(): Promise<void>;
  /** The session's model and tier, as `/model` and `/tier` show them: `tier` is `auto`,
   *  `default` (follows the model) or a tier's name (chat-fast, chat-full, reasoner-budget,
   *  reasoner). The tier choice is the run's, like the REPL's `/tier`. */
  settings(): { model: string; tier: string };
  /** Switch the model (as `/model NAME`: tiers follow it again; the next request re-reads the
   *  context once) or the tier (as `/tier`); a value it does not take throws, naming it. */
  configure(change: { model?: string; tier?: string }): void;
  /** The conversation as stored (system prompt first), for a client that replays it. */
  history(): readonly ChatMessage[];
  /** End the session (releases its lock; closing again does nothing). */
  close(reason?: string): Promise<void>;
}

/** PluginApi.sessions: open engine sessions in this project. A host that runs none (a test
 *  engine) throws from `start`. */
export interface SessionHost {
  /** Start a new session, or resume the stored one `resume` names (SessionBusyError when
   *  another deepcode is writing it; an unknown id throws naming it). `mcpServers`: MCP
   *  servers this front end brings for the session (.mcp.json's `mcpServers` shape), the
   *  person's own like `--mcp-config`'s — no project approval, the managed policy and the
   *  permission gate as for every server; they reach the mcp mod in session.start and end
   *  with the session. `cwd`: where the session's Bash starts, a folder inside the project
   *  (else it throws, naming both). Sessions are independent: any number may be open and run
   *  their turns at the same time, each with its own servers, rules and cancellation. */
  start(options?: { resume?: string; mcpServers?: Readonly<Record<string, JsonValue>>; cwd?: string }): Promise<SessionHandle>;
}
