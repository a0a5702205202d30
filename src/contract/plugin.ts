// The plugin contract, in one file. A plugin (or a built-in mod) is a module whose default
// export (or named export `plugin`) is `{ id, register(api) }`. It never imports the kernel: all
// it gets is the registration callback below. Which tier its hooks land in is decided by the
// loader (user plugins: user tier; managed-policy plugins: prepend or append; mods: builtin).

import type { AnyEvent, EventName, EventOf, Result } from "./events.js";
import type { JsonValue } from "./wire.js";
import type { ToolSpec } from "./tool.js";

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

export interface PluginApi {
  /** The plugin's id, as the loader knows it. */
  readonly id: string;
  readonly on: OnFunction;
  /** Contribute a tool. Tools that arrive after the session started are reached through the
   *  stable proxy tool, so the cached prefix does not change. */
  tool(spec: ToolSpec): void;
  readonly log: Logger;
  /** This plugin's own configuration from settings (`pluginConfig.<id>`), frozen. */
  readonly config: Readonly<Record<string, JsonValue>>;
  /** The workspace root and the deepcode home folder. */
  readonly root: string;
  readonly home: string;
  /** Whether the person trusted this project (workspace trust). A plugin that acts on what the
   *  project's own files say (its skills, servers, rules) may loosen a rule or run code from
   *  them only when this is true; tightening needs no trust. */
  readonly trusted: boolean;
  /** Dispatch an event through the whole chain (e.g. `fs.read` from a plugin's tool). */
  dispatch<N extends EventName>(event: EventOf<N>): Promise<Result<N>>;
}

export interface Plugin {
  id: string;
  description?: string;
  register(api: PluginApi): void | Promise<void>;
}
