// The `WWW-Authenticate` challenge of a protected MCP server (RFC 6750 §3, RFC 9728 §5.1): the
// Bearer scheme's parameters — `resource_metadata` (where the protected resource metadata is),
// `scope` (what this request needs), `error` (`invalid_token`, `insufficient_scope`).

export interface Challenge {
  resourceMetadata?: string;
  scope?: string;
  error?: string;
}

/** The Bearer challenge among the header's (one header may carry several schemes). */
export function parseChallenge(header: string | string[] | undefined): Challenge {
  const text = Array.isArray(header) ? header.join(", ") : (header ?? "");
  const at = text.search(/(^|[\s,])bearer(\s|$)/i);
  if (at < 0) return {};
  const rest = text.slice(at).replace(/^[\s,]*bearer/i, "");
  const out: Record<string, string> = {};
  // auth-param = token "=" ( token / quoted-string ); a new scheme (a token not followed by
  // "=") ends the Bearer parameters.
  const re = /\s*,?\s*([A-Za-z0-9_.-]+)\s*(?:=\s*("((?:[^"\\]|\\.)*)"|[^\s,]*))?/y;
  let m: RegExpExecArray | null;
  while ((m = re.exec(rest)) && m[0].length > 0) {
    if (m[2] === undefined) break;
    out[m[1].toLowerCase()] = m[3] !== undefined ? m[3].replace(/\\(.)/g, "$1") : m[2];
  }
  return { resourceMetadata: out.resource_metadata, scope: out.scope, error: out.error };
}

/** Whether a 403 asks for more scope (a step-up), not a plain refusal. */
export function insufficientScope(header: string | string[] | undefined): boolean {
  return parseChallenge(header).error === "insufficient_scope";
}
