// What `assemble()` is asked for (the command line and tests fill it); its own file, so the
// modules assemble.ts puts together can name it without importing assemble.ts.

import type { Chain } from "../core/chain.js";
import type { SessionRules } from "./permissions/index.js";

/** What a front end (the REPL, `-p`, an editor through `deepcode acp`) needs on the chain, handed
 *  to assembly so that the chain `deepcode --events` prints is the one that runs: no front end
 *  adds a hook after assembly. `register` runs as assembly's last step (after every mod and
 *  plugin), so its hooks are the innermost of their tiers, as they were when front ends added
 *  them afterwards. */
export interface FrontEnd {
  /** `repl`, `print` (-p) or `acp`; what `deepcode --events` names. */
  name: string;
  /** Its hooks and core answers: confirmation and asking the person (REPL), rendering
   *  (`ui.render`), usage and timing for its totals. */
  register?(app: { chain: Chain; sessionRules: SessionRules }): void;
}

export interface AssembleOptions {
  root: string;
  home?: string;
  env?: NodeJS.ProcessEnv;
  /** `--settings FILE`. */
  flagSettings?: string;
  /** Rules given on the command line (`--allowedTools`, `--disallowedTools`, a permission mode). */
  flagRules?: Array<{ source: string; allow?: string[]; deny?: string[] }>;
  /** The managed policy file. Only tests pass this; users cannot move it. */
  managedPath?: string;
  model?: string;
  maxTurns?: number;
  appendSystemPrompt?: string;
  /** Where start-up warnings go (plugins that failed, ignored rules…). Default stderr. */
  warn?: (message: string) => void;
  /** A person can confirm (the REPL): budgets may be raised. False for -p and subcommands. */
  interactive?: boolean;
  /** `--trust-project`: trust this project's own settings and commands for this run. */
  trustProject?: boolean;
  /** `--mcp-config FILE|JSON` (repeatable) and `--strict-mcp-config` (only those servers). */
  mcpConfig?: string[];
  strictMcpConfig?: boolean;
  /** `--permission-mode plan`: every turn of this run plans (plan mode from the start). */
  planMode?: boolean;
  /** `--permission-mode acceptEdits` (its rules come in `flagRules`; this names the mode for hooks). */
  acceptEdits?: boolean;
  /** The front end this run serves (FrontEnd); none for subcommands and `deepcode acp`. */
  frontEnd?: FrontEnd;
}
