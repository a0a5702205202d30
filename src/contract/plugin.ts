// The plugin contract, in one file. A plugin (or a built-in mod) is a module whose default
// export (or named export `plugin`) is `{ id, register(api) }`. It never imports the kernel: all
// it gets is the registration callback below. Which tier its hooks land in is decided by the
// loader (user plugins: user tier; managed-policy plugins: prepend or append; mods: builtin).

import type { AnyEvent, EventName, EventOf, Result } from "./events.js";
import type { JsonValue } from "./wire.js";
import type { ToolSpec } from "./tool.js";
import type { HostFacts, KnownStatus, Placement, SessionHost, SettingsView, StatusOf, SubcommandSpec } from "./host.js";

export const TIERS = ["prepend", "user", "append", "builtin"] as const;
/** Hook tiers, outermost first. The core tier is the chain's single tail, not a hook tier. */
export type Tier = (typeof TIERS)[number];

/** Continue down the chain, optionally with a rewritten event. Calling it twice throws. */
export type Next<N extends EventName> = (event?: EventOf<N>) => Promise<Result<N>>;

export type Hook<N extends EventName> = (event: EventOf<N>, next: Next<N>) => Result<N> | Promise<Result<N>>;
export type AnyHook = (event: AnyEvent, next: (event?: AnyEvent) => Promise<unknown>) => unknown;

/** Select events by field values: a string (equal), an array (any of), a RegExp (test).
 *  Keys may be dot paths into the payload (`"input.command"`). All keys must match. */
export type Matcher = Record<string, string | number | boolean | ReadonlyArray<string | number> | RegExp>;

/** `*` (every event) or `ns.*` (every event whose name starts with `ns.`). */
export type EventPattern = "*" | `${string}.*`;

export interface HookOptions {
  /** The hook's own time limit in ms (time inside `next` excluded). Default 10 000. */
  timeoutMs?: number;
}

export type Unsubscribe = () => void;

export interface OnFunction {
  <N extends EventName>(name: N, hook: Hook<N>, options?: HookOptions): Unsubscribe;
  <N extends EventName>(name: N, matcher: Matcher, hook: Hook<N>, options?: HookOptions): Unsubscribe;
  (name: EventPattern, hook: AnyHook, options?: HookOptions): Unsubscribe;
  (name: EventPattern, matcher: Matcher, hook: AnyHook, options?: HookOptions): Unsubscribe;
}

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** What a command's `run` gets: its arguments as typed, a way to show text, and a way to hand
 *  the model a prompt (a prompt template, a skill). */
export interface CommandContext {
  /** What followed `/name` on the line, as typed (untrimmed of inner spaces). */
  readonly args: string;
  readonly sessionId: string;
  /** Aborts when the person presses Ctrl-C while the command runs. */
  readonly signal: AbortSignal;
  /** A person is at the terminal (the REPL); false for `deepcode <command>` runs. */
  readonly interactive: boolean;
  /** Show text to the person (it is not sent to the model). */
  print(text: string): void;
  /** Run a model turn with this prompt, as if the person had typed it; resolves when it ends.
   *  Not available outside a session (throws there). */
  submit(prompt: string): Promise<void>;
}

/** Candidates for an `@word` being typed (`partial` includes the `@`), whole words back. */
export type MentionCompleter = (partial: string) => readonly string[] | Promise<readonly string[]>;

/** A slash command a plugin contributes (`/name args…`): listed in `/help`, completed with Tab. */
export interface CommandSpec {
  /** Without the slash: `[A-Za-z0-9][A-Za-z0-9_.:-]*` (`mcp`, `mcp__github__review`). A name a
   *  built-in or custom command already has is left out, with a warning. */
  name: string;
  /** One line for `/help`. */
  description: string;
  /** The arguments, for `/help` (`<server> [reconnect|disable]`). */
  args?: string;
  /** Whether `deepcode -p "/name args"` may run it (the REPL always may). Only a command that
   *  makes a prompt (a skill's, an MCP prompt) or only shows something says so; one that
   *  changes the person's setup or files stays the REPL's, since a line of -p input can come
   *  from a program. `true`, or a function of the arguments (`/mcp list` may, `/mcp approve x`
   *  may not). Default: not in -p. */
  print?: boolean | ((args: string) => boolean);
  /** For a slash name no command has yet: resolves once the commands this one brings in later
   *  may have appeared (an MCP server's prompts, when its server has connected), bounded by the
   *  command. `-p` awaits it of every command that has one before looking the name up again;
   *  `name` "" asks for every name that may come (a front end's whole list: ACP's). */
  settle?(name: string): Promise<void>;
  run(ctx: CommandContext): void | Promise<void>;
  /** Candidates for the word being typed after the name; `words` are the complete words before
   *  it. May be async (a server's completion); a failure offers nothing. */
  complete?(partial: string, words: readonly string[]): readonly string[] | Promise<readonly string[]>;
}

/** Folders of Claude Code content a plugin ships: `skills` holds `<name>/SKILL.md` folders,
 *  `agents` holds agent files (`*.md`), `output-styles` output style files (`*.md`). The skills,
 *  agents and output-styles mods read what was contributed. */
export type ContentKind = "skills" | "agents" | "output-styles";

/** PluginApi.readOwnFile: how a file deepcode reads on its own is held. */
export interface OwnFileOptions {
  /** Folders the file must really lie in, after every symlink, with one name only (no hard
   *  link): the project for the project's own files. None: anywhere (the person's own files). */
  within?: readonly string[];
  /** Read at most this many bytes (default 1 MiB); `truncated` says the file was longer. */
  maxBytes?: number;
}

/** What PluginApi.readOwnFile found: the text, or why not (`missing`: there is no such file,
 *  which is no problem to report; otherwise `reason` says why it was refused). */
export type OwnFileRead =
  | { ok: true; path: string; real: string; text: string; data: Buffer; size: number; truncated: boolean }
  | { ok: false; missing: boolean; reason: string };

export interface Contribution {
  kind: ContentKind;
  /** Absolute path of the folder. */
  dir: string;
  /** The plugin id that contributed it (its skills are named `<id>:<name>`). */
  source: string;
  /** When given: the sha256 (hex) of every file the folder may hold, by absolute path. A reader
   *  refuses a file that is not listed or whose bytes hash otherwise (an installed Claude Code
   *  plugin's files, held to its install lock while a session reads them again). */
  pins?: Readonly<Record<string, string>>;
  /** When given: only these files of the folder (absolute paths), not the folder's every file —
   *  a Claude Code plugin.json that lists agent files (`"agents": ["./api-designer.md"]`). */
  files?: readonly string[];
}

/** PluginApi.contribute's options. */
export interface ContributeOptions {
  pins?: Readonly<Record<string, string>>;
  name?: string;
  /** Contribution.files. */
  files?: readonly string[];
}

/** How a session's permissions stand, in Claude Code's names (PluginApi.permissionMode).
 *  deepcode has no `bypassPermissions` or `dontAsk`: it refuses them. */
export type PermissionMode = "default" | "acceptEdits" | "plan";

export interface PluginApi {
  /** The plugin's id, as the loader knows it. */
  readonly id: string;
  readonly on: OnFunction;
  /** Contribute a tool, during `register` or at any time after (an MCP server that connected
   *  late). A tool that arrives after the session's first request is reached through the stable
   *  proxy tool and announced in a tail note, so the cached prefix does not change. The result
   *  takes the tool back (calls to it then fail as unknown). After `register`, a name that is
   *  taken throws here; during `register` it fails the plugin as a whole. */
  tool(spec: ToolSpec): Unsubscribe;
  /** Contribute a slash command (CommandSpec), at any time; the result takes it back. */
  command(spec: CommandSpec): Unsubscribe;
  /** Offer candidates when the person presses Tab on an `@word` (things this plugin can attach,
   *  like an MCP server's resources); the plugin's own `prompt.submit` hook expands them. */
  mentions(complete: MentionCompleter): Unsubscribe;
  /** Open a connection to `url`'s host the way deepcode's own requests do: through the proxy
   *  the environment names (HTTPS_PROXY / HTTP_PROXY / NO_PROXY; loopback is always direct),
   *  TLS done for https. The result is a node:net Socket (a TLS socket for https): speak HTTP
   *  over it with node:http's `createConnection`. */
  connect(url: URL, signal: AbortSignal): Promise<NodeJS.ReadWriteStream & { destroy(): void }>;
  /** Report this plugin's state as JSON, read when asked (stream-json's init line lists MCP
   *  servers from it). Called again each time; the last function given counts. deepcode's own
   *  mods report the shapes of KnownStatus (src/contract/host.ts). One plugin per id reports:
   *  a second plugin reporting under an id already taken throws. */
  status(report: () => JsonValue | KnownStatus[keyof KnownStatus]): void;
  /** What another plugin reports (its `status`), typed for deepcode's own mods; undefined when
   *  it did not load or reports nothing. */
  statusOf<K extends string>(id: K): StatusOf<K> | undefined;
  /** Add `deepcode <name> args…` (SubcommandSpec), during `register`. deepcode assembles itself
   *  (every plugin loaded) before it runs one, so the subcommand sees what a session sees. */
  subcommand(spec: SubcommandSpec): Unsubscribe;
  /** Allow tool calls matching these rules (settings' `permissions.allow` grammar, e.g.
   *  `Bash(git status:*)`) in one session, without asking, until the returned function is
   *  called — the mechanism behind a skill's `allowed-tools`. Like the person's `a` answers
   *  they never beat a deny or an ask rule of any settings layer or the managed policy; they
   *  hold for that session only (not for the subagents it spawns). A rule that does not parse
   *  throws. A plugin granting what a project's own files ask for checks `trusted` first. */
  allow(rules: readonly string[], scope: { sessionId: string }): Unsubscribe;
  /** Contribute a folder of skills or agents (ContentKind), at any time; the result takes it back.
   *  `options.pins`: the sha256 of every file it may hold (Contribution.pins: a reader skips any
   *  other file); `options.name`: the namespace its skills and agents take (`<name>:<skill>`),
   *  by default this plugin's id (the marketplace mod names each installed plugin's folders). */
  contribute(kind: ContentKind, dir: string, options?: ContributeOptions): Unsubscribe;
  /** Every folder of that kind plugins contributed so far, in the order they came. */
  contributed(kind: ContentKind): readonly Contribution[];
  readonly log: Logger;
  /** This plugin's own configuration from settings (`pluginConfig.<id>`), frozen. */
  readonly config: Readonly<Record<string, JsonValue>>;
  /** Every setting in force, read-only (SettingsView): a plugin reads its own keys here. */
  readonly settings: SettingsView;
  /** Facts of this run: version, interactive or not, the sessions folder, the command line's
   *  flags, the tiers (HostFacts). */
  readonly host: HostFacts;
  /** The workspace root and the deepcode home folder. */
  readonly root: string;
  readonly home: string;
  /** Whether the person trusted this project (workspace trust). A plugin that acts on what the
   *  project's own files say (its skills, servers, rules) may loosen a rule or run code from
   *  them only when this is true; tightening needs no trust. */
  readonly trusted: boolean;
  /** The folder the session's Bash tool is in (its working directory persists across calls):
   *  where a command run on that session's behalf starts, as a foreground Bash call would (the
   *  jobs mod starts background commands there). The root for a session the host does not know. */
  shellCwd(sessionId: string): string;
  /** Read a file deepcode reads on its own (instructions, SKILL.md, an agent file, a command, a
   *  memory file) — not for a tool call, which uses `ctx.fs.read` and its fence. The same
   *  identity checks as the Read tool, refusing where Read would ask: a regular file only
   *  (a FIFO does not block), never a secret under any name (symlink, hard link), inside
   *  `within` when given, at most `maxBytes`, and never a path a settings read deny names
   *  (`readDenied`: the managed policy's rules hold here too). Synchronous; never throws for a
   *  file's sake. */
  readOwnFile(path: string, options?: OwnFileOptions): OwnFileRead;
  /** The settings deny rule that forbids reading this absolute path — from any layer, the
   *  managed policy's included; `Read(…)` in permissions.deny or `sandbox.filesystem.denyRead`
   *  — as written, with its file; null when none does. For a plugin that shows files to a
   *  program the gate does not watch line by line: the sandbox hides every path this names. */
  readDenied(path: string): string | null;
  /** The session's permission mode: `plan` while plan mode is on for it, `acceptEdits` when
   *  the run was started with `--permission-mode acceptEdits`, else `default` (what Claude
   *  Code hooks read as `permission_mode`). A host that does not know says `default`. */
  permissionMode(sessionId: string): PermissionMode;
  /** Wake a session that waits for its person (Claude Code's asyncRewake): the REPL ends its
   *  prompt and runs a turn with `text` as the prompt, now. False when nobody can take it now
   *  (a turn runs, the person is typing a multi-line prompt, `-p`, a host without a REPL): the
   *  caller keeps the text for the session's next prompt. */
  wake(sessionId: string, text: string): boolean;
  /** Open engine sessions and run turns in them (SessionHost): what a plugin that is a front
   *  end of its own (`deepcode acp`: an editor) drives. Every turn passes the same chain, so
   *  the plugin answers `permission.ask` itself when a person stands behind it, and the
   *  non-interactive deny answers when none does. */
  readonly sessions: SessionHost;
  /** Dispatch an event through the whole chain (e.g. `fs.read` from a plugin's tool, or
   *  `agent.spawn` to start a subagent: the host answers it, with one depth limit for all). */
  dispatch<N extends EventName>(event: EventOf<N>): Promise<Result<N>>;
}

export interface Plugin {
  id: string;
  description?: string;
  /** Where it asks to load (Placement): its tier (deepcode's own mods only) and its order
   *  relative to named plugins and assembly steps. Without it: the loader's tier, list order. */
  placement?: Placement;
  register(api: PluginApi): void | Promise<void>;
}
