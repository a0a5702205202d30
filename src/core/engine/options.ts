// What an Engine is started with (Engine.start/resume), and a subagent's link record.

import type { AgentIdentity, JsonValue, ModelCaps, TurnProfile } from "../../contract/index.js";
import type { Chain } from "../chain.js";
import type { SessionStore } from "../session/store.js";
import type { PriceTable } from "../cost/index.js";
import type { ToolRegistry } from "./tools.js";

export interface EngineOptions {
  chain: Chain;
  root: string;
  model: string;
  /** The person chose `model` for this run (`-m`): a resumed session switches to it, rather
   *  than going on with the model it was saved with. */
  modelChosen?: boolean;
  caps: (model: string) => ModelCaps;
  registry: ToolRegistry;
  /** Where sessions live; without one nothing is written (tests, benchmarks). */
  store?: SessionStore;
  version: string;
  profile?: Partial<TurnProfile>;
  /** Model rounds per turn before stopping with `max_turns` (`--max-turns`). */
  maxSteps?: number;
  /** Read-only calls run at once (default 3, at most 16). */
  concurrency?: number;
  resultMaxBytes?: number;
  /** Automatic compaction at `threshold` × `window` tokens (defaults 0.8 × the model's window),
   *  and before a turn's first round at `betweenTurns` × `window` (default 0.5); `keepTurns`
   *  user turns stay verbatim (default 1: the turn in progress). See compaction.ts. */
  compaction?: { threshold?: number; betweenTurns?: number; window?: number; keepTurns?: number };
  appendSystemPrompt?: string;
  now?: () => Date;
  language?: string;
  /** Prices (the packaged table plus settings `pricing`); default: the packaged table. */
  prices?: PriceTable;
  /** This engine is a subagent's (agent.spawn): who it works for, and its own system prompt
   *  (in place of deepcode's base prompt; the instruction layers come from context.system's
   *  hooks as for every session). Its session has no session.start/session.end (its run is the
   *  spawn) and no prompt.submit (its prompt is the calling model's, not a person's). */
  agent?: { identity: AgentIdentity; system: string };
  /** MCP servers the front end that opened this session brings for it (PluginApi.sessions'
   *  `mcpServers`), passed on in session.start for the mcp mod. */
  mcpServers?: Readonly<Record<string, JsonValue>>;
  /** Where the session's Bash starts (a folder inside `root`; default `root`). Paths in tool
   *  calls still resolve against `root`: only the shell's working directory moves. */
  cwd?: string;
}

/** A subagent's transcript, linked from its parent's (`deepcode sessions` nests it). */
export interface AgentLink {
  id: string;
  name: string;
  task: string;
  /** The tool call that spawned it. */
  callId?: string;
  /** Its file, relative to the parent's sessions folder. */
  file: string;
}
