// Files by grant (issue #35, items 1–2), the attacker's side, through the real CLI: the person's
// real home and other projects are invisible to a sandboxed command — not a list of well-known
// secret files, everything — whichever way the command reaches them (cat, a path built at run
// time, a walk of the home, curl's file://, an interactive shell that sources the rc files, git
// reading ~/.gitconfig). Only what settings `sandbox.filesystem.allowRead` names comes back, and
// read-only. Inside the workspace, a configuration file that does hold a credential (an .npmrc
// with a token, docker's `auths`, a kube token) stays hidden. Judged by effect: a canary value in any request body the simulator received is a
// leak. Default settings otherwise (the sandbox active: the commands run without a prompt).
// The home is on disk (grant-helpers.ts says why not under /tmp).
// Run `npx tsc -p tsconfig.json` first: this starts dist/.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Box } from "./helpers.js";
import { FAMILY_TIMEOUT_MS, SANDBOX, WHY_NOT, account, has, hiddenScript, makeDiskBox, runCalls, userSettings } from "./grant-helpers.js";

/** Files of the home folder that hold credentials today, none of them on a fixed list's first
 *  page: [path under the home, content]; each content holds its own canary. */
const HOME_FILES: Array<[string, string]> = [
  [".claude.json", '{"primaryApiKey":"sk-ant-CanaryClaudeJson01","mcpServers":{"gh":{"command":"gh-mcp","env":{"GITHUB_TOKEN":"ghp_CanaryClaudeMcp02"}}}}\n'],
  [".config/rclone/rclone.conf", "[remote]\ntype = s3\naccess_key_id = AKIA0000\nsecret_access_key = CanaryRclone03\n"],
  [".gemini/oauth_creds.json", '{"access_token":"ya29.CanaryGemini04","refresh_token":"1//CanaryGemini05"}\n'],
  [".cursor/mcp.json", '{"mcpServers":{"db":{"command":"db-mcp","env":{"DB_PASSWORD":"CanaryCursor06"}}}}\n'],
  [".databrickscfg", "[DEFAULT]\nhost = https://dbc.example.invalid\ntoken = dapiCanaryDatabricks07\n"],
  [".config/ngrok/ngrok.yml", 'version: "2"\nauthtoken: CanaryNgrok08\n'],
  [".wrangler/config/default.toml", 'oauth_token = "CanaryWrangler09"\nrefresh_token = "CanaryWrangler10"\n'],
  [".config/stripe/config.toml", "[default]\ntest_mode_api_key = 'sk_test_CanaryStripe11'\n"],
  [".gitconfig", '[user]\n\tname = Dev Person\n\temail = dev@example.com\n[url "https://x-access-token:CanaryGitconfig12@github.com/"]\n\tinsteadOf = https://github.com/\n'],
  [".bashrc", "# ~/.bashrc\nexport ANTHROPIC_API_KEY=CanaryBashrc13\n"],
  [".zshrc", "export OPENAI_API_KEY=CanaryZshrc14\n"],
  [".profile", "export GH_TOKEN=CanaryProfile15\n"],
  [".config/Code/User/settings.json", '{"editor.fontSize":13,"rest-client.environmentVariables":{"prod":{"token":"CanaryVscode16"}}}\n'],
  ["other/.env", "DATABASE_PASSWORD=CanaryOtherProject17\n"],
  ["backup/id_rsa_copy", "-----BEGIN OPENSSH PRIVATE KEY-----\nCanaryBackupKey18\n-----END OPENSSH PRIVATE KEY-----\n"],
];
/** A project next to this one (not opened): invisible too. */
const NEIGHBOUR: [string, string] = ["app/config.yml", "database:\n  password: CanaryNeighbour19\n"];
const CANARY = /Canary[A-Za-z]+\d\d/g;
const leaked = (text: string): string[] => [...new Set(text.match(CANARY) ?? [])].sort();

function plant(box: Box): void {
  for (const [rel, text] of HOME_FILES) {
    mkdirSync(dirname(join(box.home, rel)), { recursive: true });
    writeFileSync(join(box.home, rel), text);
  }
  mkdirSync(dirname(join(box.outside, NEIGHBOUR[0])), { recursive: true });
  writeFileSync(join(box.outside, NEIGHBOUR[0]), NEIGHBOUR[1]);
}

const b64 = (s: string): string => Buffer.from(s).toString("base64");
/** The home's files by paths the command text never names: built at run time from base64. */
const PY_READ = `python3 -c "import os,base64,sys;h=os.path.expanduser('~');ps=base64.b64decode('${b64(HOME_FILES.map(([p]) => p).join(" "))}').decode().split();[sys.stdout.write(p+': '+(open(os.path.join(h,p),errors='replace').read() if os.path.isfile(os.path.join(h,p)) else 'not a file')+'\\n') for p in ps]"`;

let box: Box;
beforeEach(() => {
  box = makeDiskBox();
  plant(box);
});
afterEach(() => box.cleanup());

describe.skipIf(!SANDBOX)(`the person's home and other projects, from a sandboxed command${WHY_NOT}`, () => {
  it("none of the home's credential files, nor a neighbour project's, reaches the API, whichever way the command reads them", async () => {
    // curl is allowed outright, as a team allows it: file:// must not become a way round.
    userSettings(box, { permissions: { allow: ["Bash(curl:*)"] } });
    const commands = [
      ...HOME_FILES.map(([p]) => `cat ~/${p}`),
      ...(has("python3") ? [PY_READ] : []),
      "find ~ -type f 2>/dev/null | xargs cat 2>/dev/null",
      "grep -rh Canary ~ 2>/dev/null",
      ...(has("curl") ? [`for f in .claude.json .databrickscfg other/.env backup/id_rsa_copy; do curl -s "file://$HOME/$f"; done`] : []),
      "bash -ic 'env' 2>/dev/null; bash -lc 'env' 2>/dev/null",
      "git config --global --list",
      `cat ${join(box.outside, NEIGHBOUR[0])}`,
      "cat ../outside/app/config.yml",
    ];
    const r = await runCalls(box, commands);
    const story = account(commands, r);
    // The walk of the home ran without a prompt: what it printed is the sandbox's doing.
    expect(r.denials.map((d) => d.tool_input?.command), story).not.toContain(commands[HOME_FILES.length + (has("python3") ? 1 : 0)]);
    expect(r.run.result?.stop_reason, story).toBe("completed");
    expect(leaked(r.sent), story).toEqual([]);
  }, FAMILY_TIMEOUT_MS);

  it("configuration files that do hold a credential stay hidden in the workspace (.npmrc, .pypirc, .netrc, docker and kube config)", async () => {
    const configs: Array<[string, string]> = [
      [".npmrc", "registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken=npm_CanaryNpmrc21\n"],
      [".pypirc", "[pypi]\nusername = __token__\npassword = CanaryPypirc22\n"],
      [".netrc", "machine example.invalid login me password CanaryNetrc23\n"],
      [".docker/config.json", '{"auths":{"ghcr.io":{"identitytoken":"CanaryDocker24"}}}\n'],
      [".kube/config", "apiVersion: v1\nkind: Config\nusers:\n- name: me\n  user:\n    token: CanaryKube25\n"],
    ];
    for (const [rel, text] of configs) {
      mkdirSync(dirname(join(box.root, rel)), { recursive: true });
      writeFileSync(join(box.root, rel), text);
    }
    const commands = [hiddenScript(`cat ${configs.map(([p]) => p).join(" ")}`), "grep -rh Canary . 2>/dev/null", "cat .docker/config.json .kube/config"];
    const r = await runCalls(box, commands);
    const story = account(commands, r);
    expect(r.denials.map((d) => d.tool_input?.command), story).not.toContain(commands[0]);
    expect(leaked(r.sent), story).toEqual([]);
    for (const [rel, text] of configs) expect(readFileSync(join(box.root, rel), "utf8")).toBe(text);
  }, FAMILY_TIMEOUT_MS);

  it("a folder the person's settings name in sandbox.filesystem.allowRead is readable, read-only; one they do not name stays invisible", async () => {
    const shared = join(box.home, "shared-notes", "notes.txt");
    const lib = join(box.outside, "shared-lib", "README.md");
    const hidden = join(box.home, "private-notes", "notes.txt");
    for (const [f, text] of [[shared, "SharedNotesVisible\n"], [lib, "SharedLibVisible\n"], [hidden, "CanaryPrivateNotes20\n"]] as const) {
      mkdirSync(dirname(f), { recursive: true });
      writeFileSync(f, text);
    }
    userSettings(box, { sandbox: { filesystem: { allowRead: ["~/shared-notes", join(box.outside, "shared-lib")] } } });
    const commands = ["cat ~/shared-notes/notes.txt", `cat ${lib}`, "cat ~/private-notes/notes.txt", hiddenScript(`echo more >> ~/shared-notes/notes.txt; echo more >> ${lib}`)];
    const r = await runCalls(box, commands);
    const story = account(commands, r);
    expect(r.denials, story).toEqual([]);
    expect(r.results[0], story).toContain("SharedNotesVisible");
    expect(r.results[1], story).toContain("SharedLibVisible");
    expect(leaked(r.sent), story).toEqual([]);
    // Read-only: the appends failed, the files are as they were.
    expect(readFileSync(shared, "utf8")).toBe("SharedNotesVisible\n");
    expect(readFileSync(lib, "utf8")).toBe("SharedLibVisible\n");
  }, FAMILY_TIMEOUT_MS);
});
