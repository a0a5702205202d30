// An agent definition, shared by load.ts (files) and builtin.ts (the built-in ones).

export interface Agent {
  name: string;
  description: string;
  /** Tool names for agent.spawn; absent: the caller's. */
  tools?: string[];
  /** The types it may start (from `Agent(x)`); absent: any. */
  agents?: string[];
  disallowedTools: string[];
  readOnly?: boolean;
  /** `inherit`, a tier name, or a model id. */
  model: string;
  maxTurns?: number;
  body: string;
  scope: "builtin" | "project" | "user" | "plugin";
  source: string;
  file?: string;
  /** What deepcode changed or left out of the file, for /agents. */
  notes: string[];
}
