// The `WWW-Authenticate` challenge of a protected MCP server (RFC 6750 §3, RFC 9728 §5.1): the
// Bearer scheme's parameters — `resource_metadata` (where the protected resource metadata is),
// `scope` (what this request needs), `error` (`invalid_token`, `insufficient_scope`).

export interface Challenge {
  resourceMetadata?: string;
  scope?: string;
  error?: string;
}

/** The Bearer challenge among the header's (one header may carry several schemes); where
 *  there is none, the DPoP one (RFC 9449 §7.1: a server of DPoP-bound tokens may name only
 *  that scheme, with the same parameters). */
export function parseChallenge(header: string | string[] | undefined): Challenge {
  const bearer = schemeParams(header, "bearer");
  const out = bearer ?? schemeParams(header, "dpop") ?? {};
  return { resourceMetadata: out.resource_metadata, scope: out.scope, error: out.error };
}

/** The `error` of the DPoP challenge (`use_dpop_nonce`, `invalid_dpop_proof`…), if any. */
export function dpopError(header: string | string[] | undefined): string | undefined {
  return schemeParams(header, "dpop")?.error;
}

function schemeParams(header: string | string[] | undefined, scheme: string): Record<string, string> | undefined {
  const text = Array.isArray(header) ? header.join(", ") : (header ?? "");
  const at = text.search(new RegExp(`(^|[\\s,])${scheme}(\\s|$)`, "i"));
  if (at < 0) return undefined;
  const rest = text.slice(at).replace(new RegExp(`^[\\s,]*${scheme}`, "i"), "");
  const out: Record<string, string> = {};
  // auth-param = token "=" ( token / quoted-string ); a new scheme (a token not followed by
  // "=") ends this scheme's parameters.
  const re = /\s*,?\s*([A-Za-z0-9_.-]+)\s*(?:=\s*("((?:[^"\\]|\\.)*)"|[^\s,]*))?/y;
  let m: RegExpExecArray | null;
  while ((m = re.exec(rest)) && m[0].length > 0) {
    if (m[2] === undefined) break;
    out[m[1].toLowerCase()] = m[3] !== undefined ? m[3].replace(/\\(.)/g, "$1") : m[2];
  }
  return out;
}

/** Whether a 403 asks for more scope (a step-up), not a plain refusal. */
export function insufficientScope(header: string | string[] | undefined): boolean {
  return parseChallenge(header).error === "insufficient_scope";
}
