// The catalogue's gate answers (src/contract/events.ts re-exports them): what `tool.check`,
// `permission.ask` and `person.ask` answer, and the questions `person.ask` puts to a person.

import type { JsonValue } from "./wire.js";

/** The answer of the `tool.check` gate. */
export interface GateDecision {
  decision: "allow" | "ask" | "deny";
  reason?: string;
  /** Who decided: a rule with its layer, a hook's owner, or "default". */
  by?: string;
  /** For an ask: the rule an `a` answer would add for the session (e.g. `Bash(npm test:*)`). */
  remember?: string;
}

/** The settings rule behind a permission decision, where one rule decided it. */
export interface DecidingRule {
  /** As written (`Read(.env)`, `Bash(git push:*)`). */
  rule: string;
  kind: "allow" | "ask" | "deny";
  /** The settings layer: user, project, local, flag, managed, session… */
  layer: string;
  file?: string;
  line?: number;
}

/** `tool.decided`: one permission decision, once it is final. Dispatched by the permission gate
 *  exactly once for each `tool.check` it answers allow or deny, and for an ask once the question
 *  is answered (by a person, or by no one: `-p`). Observers only (the audit: hooks' `PermissionDenied`,
 *  the audit-log plugin, an export); an observer's failure is reported and changes nothing. */
export interface ToolDecision {
  sessionId: string;
  callId: string;
  tool: string;
  input: Record<string, JsonValue>;
  /** What happened: the call runs (allow) or does not (deny). */
  decision: "allow" | "deny";
  /** What the gate answered first; `ask` means a question was put (see `answer`). */
  gate: "allow" | "ask" | "deny";
  reason?: string;
  /** Who decided at the gate: a rule with its layer, a hook's owner, "secrets", "default"… */
  by?: string;
  /** The rule that decided at the gate, when one did. */
  rule?: DecidingRule;
  /** For an ask: who answered and why ("non-interactive", the REPL's person, a plugin). */
  answer?: { decision: "allow" | "deny"; by?: string; reason?: string };
}

/** The answer of the `permission.ask` gate (a person, or no one: deny). */
export interface AskAnswer {
  decision: "allow" | "deny";
  /** `a`: allow this kind for the rest of the session (the `remember` text says what). */
  remember?: boolean;
  reason?: string;
  by?: string;
}

/** One field of a form in `person.ask` (an MCP elicitation's requested schema, a plugin's
 *  install options…): what it is called, its type, its default and its limits. */
export interface PersonField {
  name: string;
  /** The label the person reads (the name when absent). */
  title?: string;
  description?: string;
  type: "string" | "number" | "integer" | "boolean" | "enum";
  /** For `enum`: the values to choose from (and their labels, in the same order). */
  options?: string[];
  optionLabels?: string[];
  /** For `enum`: several may be chosen (the value is a list). */
  multiple?: boolean;
  default?: JsonValue;
  required?: boolean;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  /** A string format the answer must have (`email`, `uri`, `date`, `date-time`). */
  format?: string;
}

/** A question for the person that is not a tool call: start a project's MCP server, answer a
 *  server's form, let a server use the model. Generic on purpose (skills and plugin installs
 *  ask through it too): a kind to tell questions apart, a title, lines of detail, optional
 *  form fields. Whoever answers (the REPL) shows it; no one to answer means deny. */
export interface PersonQuestion {
  sessionId: string;
  /** What is asked, namespaced by who asks: `mcp.server`, `mcp.elicitation`, `mcp.sampling`… */
  kind: string;
  /** Who asks: a plugin id, or `mcp:<server>`. */
  from: string;
  /** One line: what the person decides. */
  title: string;
  /** What the person should see before deciding: the command, the URL, the message. */
  detail: string[];
  /** A form to fill in when the answer is allow (values come back in `values`). */
  fields?: PersonField[];
  /** The answer may be remembered (the asker says what `remember` keeps, in `detail`). */
  rememberable?: boolean;
  /** A question answered with one key among a few (`g` go, `e` edit, `d` drop) rather than yes
   *  or no: the answer is allow with `choice` set to the key pressed; any other key is a deny. */
  choices?: PersonChoice[];
}

/** One answer of a `choices` question: the key that picks it and what it means. */
export interface PersonChoice {
  /** One lower-case letter or digit. */
  key: string;
  label: string;
}

/** The answer of the `person.ask` gate. */
export interface PersonAnswer {
  decision: "allow" | "deny";
  /** The form's values (every field, defaults applied), when the person filled it in. */
  values?: Record<string, JsonValue>;
  /** The person asked for this answer to be remembered (only when the question was rememberable). */
  remember?: boolean;
  /** For a `choices` question: the key of the choice made. */
  choice?: string;
  reason?: string;
  by?: string;
}
