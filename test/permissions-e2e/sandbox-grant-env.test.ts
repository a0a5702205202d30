// The environment by grant (issue #35, item 3), through the real CLI: credentials in deepcode's
// own environment (a CI job's tokens, a developer's exported keys) never reach a sandboxed
// command, so never a tool result, so never a request the API receives — however the command
// prints its environment. What programs need (PATH, HOME, locale, TZ, toolchain variables) still
// passes, and settings `sandbox.env` (the person's own layer) passes exactly the names it lists.
// Judged by effect: a canary value in any request body the simulator received is a leak.
// Default settings otherwise (the sandbox active, so the commands run without a prompt).
// Run `npx tsc -p tsconfig.json` first: this starts dist/.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Box } from "./helpers.js";
import { FAMILY_TIMEOUT_MS, SANDBOX, WHY_NOT, account, has, makeDiskBox, runCalls, userSettings } from "./grant-helpers.js";

/** Credentials as CI and developers hold them, each with a value of its own. */
const CREDENTIALS: Record<string, string> = {
  GITHUB_TOKEN: "ghp_CanaryGithub3Jq8Zt1",
  NPM_TOKEN: "npm_CanaryNpm7Vw2Kd5",
  AWS_SECRET_ACCESS_KEY: "CanaryAwsSecret9Pl4Xe",
  OPENAI_API_KEY: "sk-CanaryOpenai6Rt3Mb",
  HF_TOKEN: "hf_CanaryHuggingface2Ns8",
  CI_JOB_TOKEN: "CanaryCiJob5Hd1Qw",
  VAULT_TOKEN: "hvs.CanaryVault8Gk2Lz",
  // A URL whose userinfo holds a password: the password is the secret.
  DATABASE_URL: "postgres://app:CanaryDbPass4Fy7@db.example.invalid:5432/app",
};
const canaryOf = (name: string): string => (name === "DATABASE_URL" ? "CanaryDbPass4Fy7" : (CREDENTIALS[name] as string));
const leaked = (text: string): string[] => Object.keys(CREDENTIALS).filter((n) => text.includes(canaryOf(n)));

/** What programs need, which must still pass. */
const NEEDED: Record<string, string> = { LANG: "C.UTF-8", TZ: "Europe/Paris", GOFLAGS: "-mod=mod", TERM: "xterm-256color" };

/** Every way a command prints its environment: whole, by name, filtered, through /proc, from
 *  interpreters, and from a child of a child. */
const PRINTERS = [
  "env",
  "printenv GITHUB_TOKEN; printenv NPM_TOKEN; echo \"db=$DATABASE_URL vault=$VAULT_TOKEN\"",
  "printenv | grep -i -e token -e key -e secret -e url",
  "cat /proc/self/environ",
  // The same read in a script the shell reader cannot see into: the sandbox alone stands in its way.
  `echo ${Buffer.from("tr '\\0' '\\n' < /proc/self/environ").toString("base64")} | base64 -d > e.sh && sh e.sh`,
  "export -p",
  "bash -c 'sh -c env'",
  ...(has("python3") ? ["python3 -c 'import os;print(os.environ)'"] : []),
  "node -e 'console.log(process.env)'",
  "node -e 'require(\"child_process\").execSync(\"sh -c \\\"bash -c printenv\\\"\", { stdio: \"inherit\" })'",
];

let box: Box;
beforeEach(() => {
  box = makeDiskBox();
});
afterEach(() => box.cleanup());

describe.skipIf(!SANDBOX)(`the environment a sandboxed command gets${WHY_NOT}`, () => {
  it("never holds a credential from deepcode's environment, however the command prints it, and still holds what programs need", async () => {
    const r = await runCalls(box, PRINTERS, { env: { ...CREDENTIALS, ...NEEDED } });
    const story = account(PRINTERS, r);
    // The commands ran, without a prompt: a leak must not be hidden behind a denial. (A command
    // naming /proc/self/environ may ask: the gate asks before a process's environment is read.)
    expect(r.denials.filter((d) => !d.tool_input?.command?.includes("/proc/self/environ")), story).toEqual([]);
    expect(r.results[0], story).toMatch(/^PATH=/m);
    // No credential value reached the API, in any request.
    expect(leaked(r.sent), story).toEqual([]);
    // What programs need passed (HOME is the sandbox's home, wherever that is).
    for (const [k, v] of Object.entries(NEEDED)) expect(r.results[0], story).toContain(`${k}=${v}`);
    expect(r.results[0], story).toMatch(/^HOME=\//m);
  }, FAMILY_TIMEOUT_MS);

  it("passes exactly the credentials the person's settings sandbox.env names, by name or by glob", async () => {
    userSettings(box, { sandbox: { env: ["GITHUB_TOKEN"] } });
    const one = await runCalls(box, ["env"], { env: CREDENTIALS });
    expect(one.denials, account(["env"], one)).toEqual([]);
    expect(leaked(one.sent), account(["env"], one)).toEqual(["GITHUB_TOKEN"]);
    expect(one.results[0]).toContain(`GITHUB_TOKEN=${CREDENTIALS.GITHUB_TOKEN}`);

    userSettings(box, { sandbox: { env: ["HF_*", "NPM_TOKEN"] } });
    const glob = await runCalls(box, ["env"], { env: CREDENTIALS });
    expect(leaked(glob.sent), account(["env"], glob)).toEqual(["NPM_TOKEN", "HF_TOKEN"]);
  }, FAMILY_TIMEOUT_MS);
});
