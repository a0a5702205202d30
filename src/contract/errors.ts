// Errors every layer may throw or recognise. Kept here so no layer imports another's.

/** A declared event (or a feature path) that has no implementation yet. */
export class NotImplementedError extends Error {
  constructor(readonly what: string) {
    super(`not implemented: ${what}`);
    this.name = "NotImplementedError";
  }
}

/** A misuse of the chain (calling next twice, changing an event's type, an unknown event). */
export class ChainError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ChainError";
  }
}

/** A hook's refusal of a non-gate event (the path fence refusing an `fs.write`, say). Unlike
 *  any other throw, which the chain reports and skips, this reaches the caller: a deny is one
 *  of the five things a hook may do, on every event. */
export class DeniedError extends Error {
  constructor(message: string, readonly by: string) {
    super(message);
    this.name = "DeniedError";
  }
}

/** A hook overran its own time limit. */
export class HookTimeoutError extends Error {
  constructor(readonly owner: string, readonly event: string, readonly limitMs: number) {
    super(`hook of ${owner} on ${event} overran its ${limitMs} ms limit`);
    this.name = "HookTimeoutError";
  }
}

/** Bad configuration a person must fix: names the file, and the line and column if known. */
export class ConfigError extends Error {
  constructor(
    message: string,
    readonly file?: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(file ? `${file}${line ? `:${line}${column ? `:${column}` : ""}` : ""}: ${message}` : message);
    this.name = "ConfigError";
  }
}

export type ProviderErrorKind =
  | "bad_request"
  | "auth"
  | "balance"
  | "invalid_params"
  | "rate_limit"
  | "server"
  | "overloaded"
  | "network"
  | "timeout"
  | "idle_timeout"
  | "aborted"
  | "protocol"
  | "config";

/** Whether an API's error message says the model named is not served ("Model Not Exist" is
 *  DeepSeek's; OpenAI-style relays say model_not_found or "does not exist"). */
export function modelNotServed(message: string): boolean {
  return /model not exist|model_not_found|no such model|unknown model|model\b[^.;]{0,80}\b(?:does not exist|not found|is not (?:supported|available|served))/i.test(message);
}

/** A model request that failed. Never carries the API key. */
export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly status?: number,
    readonly attempts = 1,
  ) {
    super(message);
    this.name = "ProviderError";
  }
}

/** A usage error (a subcommand's wrong arguments): the CLI prints `deepcode: <message>` and
 *  exits 2. Plugins' subcommands throw it too. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}
