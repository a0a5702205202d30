// A broad allow never lifts the secret ask (issue 22: `Read(**)` lifted it for `.env`). Only a
// rule that names the secret does: its file name or pattern (`Read(.env)`, `Read(*.pem)`), or
// the credentials folder itself (`Read(~/.ssh/**)`).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { decide } from "../../src/cli/permissions/index.js";
import { makeWorkspace, rulesOf, type Workspace } from "../permissions/helpers.js";
import { call, cliRig, type CliRig } from "../e2e/helpers.js";

let ws: Workspace;
beforeEach(() => {
  ws = makeWorkspace();
  mkdirSync(join(ws.home, ".ssh"));
  mkdirSync(join(ws.home, ".aws"));
  mkdirSync(join(ws.root, "config"));
  for (const f of [join(ws.root, ".env"), join(ws.root, "config", ".env.local"), join(ws.root, ".npmrc"), join(ws.root, "server.pem"), join(ws.home, ".ssh", "id_ed25519"), join(ws.home, ".aws", "credentials"), join(ws.root, "src", "a.ts")]) writeFileSync(f, "x");
  // An .npmrc is a secret by what it holds (a token-free one is configuration).
  writeFileSync(join(ws.root, ".npmrc"), "//registry.npmjs.org/:_authToken=npm_x\n");
});
afterEach(() => ws.cleanup());

const read = (file: string, allow: string[]) => decide({ tool: "Read", input: { file_path: file }, readOnly: true }, rulesOf({ user: { allow } }), ws.env).decision;
const catOf = (file: string, allow: string[]) => decide({ tool: "Bash", input: { command: `cat '${file}'` }, readOnly: false }, rulesOf({ user: { allow: [...allow, "Bash(cat:*)"] } }), ws.env).decision;

describe("the secret ask under allow rules", () => {
  const SECRETS = () => [join(ws.root, ".env"), join(ws.root, "config", ".env.local"), join(ws.root, ".npmrc"), join(ws.root, "server.pem"), join(ws.home, ".ssh", "id_ed25519"), join(ws.home, ".aws", "credentials")];
  const BROAD = ["Read(**)", "Read(/**)", "Read(*)", "Read(**/*)", "Read(**/.*)", "Read(*.*)", "Read(~/**)", "Read(//**)", "Read(config/**)", "Read(./**)", "Read(~/*/*)"];

  it("stays for every secret under every broad allow, by Read and by cat (corpus)", () => {
    let tried = 0;
    let stopped = 0;
    for (const file of SECRETS()) {
      for (const rule of BROAD) {
        for (const [how, d] of [["Read", read(file, [rule])], ["cat", catOf(file, [rule])]] as const) {
          tried++;
          if (d !== "allow") stopped++;
          expect({ file, rule, how, d }).toEqual({ file, rule, how, d: "ask" });
        }
      }
    }
    expect(stopped).toBe(tried);
  });

  it("is lifted by a rule that names the secret", () => {
    const cases: Array<[string, string]> = [
      [join(ws.root, ".env"), "Read(.env)"],
      [join(ws.root, ".env"), "Read(/.env)"],
      [join(ws.root, ".env"), `Read(/${join(ws.root, ".env")})`],
      [join(ws.root, "config", ".env.local"), "Read(**/.env*)"],
      [join(ws.root, "server.pem"), "Read(*.pem)"],
      [join(ws.home, ".ssh", "id_ed25519"), "Read(~/.ssh/**)"],
      [join(ws.home, ".ssh", "id_ed25519"), "Read(~/.ssh/id_ed25519)"],
      [join(ws.home, ".aws", "credentials"), "Read(~/.aws/*)"],
    ];
    for (const [file, rule] of cases) expect({ file, rule, d: read(file, [rule]) }).toEqual({ file, rule, d: "allow" });
  });

  it("leaves ordinary files to the broad allow", () => {
    expect(read(join(ws.root, "src", "a.ts"), ["Read(**)"])).toBe("allow");
  });
});

describe("Read(**) with the real CLI", () => {
  let rig: CliRig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  it("does not send .env to the API in -p", async () => {
    rig = await cliRig({ replies: [call("Read", { file_path: ".env" }), { content: "done" }] }, { ".env": "API_TOKEN=sk-live-CANARY\n" });
    const r = await rig.run(["-p", "read the env", "--allowedTools", "Read(**)", "--output-format", "json"]);
    expect(r.code).toBe(0);
    expect(JSON.stringify(rig.sim.requests.map((q) => q.json))).not.toContain("sk-live-CANARY");
    expect((JSON.parse(r.stdout) as { permission_denials: unknown[] }).permission_denials).toHaveLength(1);
  });
});
