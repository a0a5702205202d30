// What `assemble()` is asked for (the command line and tests fill it); its own file, so the
// modules assemble.ts puts together can name it without importing assemble.ts.

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
}
