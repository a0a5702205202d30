// Reading a protected server's WWW-Authenticate challenge: the Bearer parameters deepcode acts
// on, wherever the Bearer challenge sits among others.
import { describe, expect, it } from "vitest";
import { dpopError, insufficientScope, parseChallenge } from "../../mods/mcp/oauth/challenge.js";

describe("the WWW-Authenticate challenge of a protected MCP server", () => {
  it("reads resource_metadata, scope and error, quoted or not", () => {
    expect(parseChallenge(`Bearer resource_metadata="https://a.example/.well-known/oauth-protected-resource/mcp", scope="files:read files:write", error=invalid_token`)).toEqual({
      resourceMetadata: "https://a.example/.well-known/oauth-protected-resource/mcp",
      scope: "files:read files:write",
      error: "invalid_token",
    });
  });

  it("finds the Bearer challenge after another scheme's, and stops at the next scheme", () => {
    const h = `DPoP algs="ES256", Bearer error="insufficient_scope", scope="admin", Basic realm="x"`;
    expect(parseChallenge(h)).toEqual({ resourceMetadata: undefined, scope: "admin", error: "insufficient_scope" });
    expect(insufficientScope(h)).toBe(true);
  });

  it("reads a header given twice, and an escaped quote inside a value", () => {
    expect(parseChallenge(["Basic realm=\"a\"", `Bearer scope="say \\"hi\\""`]).scope).toBe('say "hi"');
  });

  it("has nothing to say about a challenge without Bearer, and a 403 without insufficient_scope is no step-up", () => {
    expect(parseChallenge(`Basic realm="x"`)).toEqual({});
    expect(parseChallenge(undefined)).toEqual({});
    expect(insufficientScope(`Bearer error="invalid_token"`)).toBe(false);
  });

  it("reads a DPoP-only challenge (a server of DPoP-bound tokens) and its use_dpop_nonce, the Bearer one first where both are", () => {
    const h = `DPoP algs="ES256", error="use_dpop_nonce", resource_metadata="https://a.example/prm"`;
    expect(parseChallenge(h)).toEqual({ resourceMetadata: "https://a.example/prm", scope: undefined, error: "use_dpop_nonce" });
    expect(dpopError(h)).toBe("use_dpop_nonce");
    expect(dpopError(`DPoP error="use_dpop_nonce", Bearer error="invalid_token"`)).toBe("use_dpop_nonce");
    expect(parseChallenge(`DPoP error="use_dpop_nonce", Bearer error="invalid_token"`).error).toBe("invalid_token");
    expect(dpopError(`Bearer error="invalid_token"`)).toBeUndefined();
  });
});
