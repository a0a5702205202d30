// Credential files, in real processes: Read asks (so -p refuses) for every place of the
// contract's home list — package-registry and CLI tokens, browser profiles, histories —, for
// token files by name in the project, and for deepcode's own home wherever DEEPCODE_HOME puts it
// and at the default ~/.deepcode as well (other projects' transcripts, the usage ledger, the
// credentials). Grep of the home folder, even where a rule allows reading it, leaves them out.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { HOME_SECRETS } from "../../src/contract/protected.js";
import type { Simulator } from "../sim/server.mjs";
import { CLI_HOOK_TIMEOUT_MS, makeBox, runCli, startSim, toolResults, everythingWritten, writeJson, type Box } from "./helpers.js";

let box: Box;
let sim: Simulator | undefined;
let flag: string;

const put = (file: string, text: string): void => {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
};

/** The reproductions, as a person has them. */
const LISTED: Record<string, string> = {
  ".npmrc": "//registry.npmjs.org/:_authToken=npm_SECRET-npmrc\n",
  ".config/gh/hosts.yml": "github.com:\n  oauth_token: gho_SECRET-gh\n",
  ".cargo/credentials.toml": '[registry]\ntoken = "SECRET-cargo"\n',
  ".vault-token": "hvs.SECRET-vault\n",
  ".deepcode/credentials": "DEEPSEEK_API_KEY=sk-SECRET-default-home\n",
  ".mozilla/firefox/x.default/cookies.sqlite": "SECRET-cookies\n",
  ".bash_history": "export GITHUB_TOKEN=SECRET-history\n",
};

/** Every place of the contract's home list (as a file at that path): none is a prefix of another. */
const TAKEN = [...HOME_SECRETS, ...Object.keys(LISTED)];
const GENERATED = HOME_SECRETS.filter((p) => !(p in LISTED) && !TAKEN.some((q) => q.startsWith(`${p}/`)));

beforeEach(() => {
  box = makeBox();
  for (const [p, text] of Object.entries(LISTED)) put(join(box.home, p), text);
  GENERATED.forEach((p, i) => put(join(box.home, p), `SECRET-generated-${i}\n`));
  // deepcode's home elsewhere (DEEPCODE_HOME): another project's transcript, the ledger.
  put(join(box.deepcodeHome, "sessions", "other-project", "20250101-000000-abcdef.jsonl"), '{"role":"user","content":"SECRET-transcript"}\n');
  put(join(box.deepcodeHome, "usage.jsonl"), '{"cost":1,"note":"SECRET-ledger"}\n');
  // Token files by name, in the project.
  put(join(box.root, ".npmrc"), "//npm.example.com/:_authToken=SECRET-project-npmrc\n");
  put(join(box.root, "auth.json"), '{"http-basic":{"repo.example.com":{"password":"SECRET-composer"}}}\n');
  put(join(box.root, "infra", "terraform.tfstate"), '{"password":"SECRET-tfstate"}\n');
  put(join(box.root, "app.ts"), "export const ok = 1;\n");
  flag = join(box.base, "flag-settings.json");
  writeJson(flag, { sandbox: { enabled: false } });
});
afterEach(async () => {
  await sim?.close();
  sim = undefined;
  box.cleanup();
});

const everything = (s: Simulator): string => everythingWritten(s, box, (p) => p.endsWith("other-project") || p === join(box.deepcodeHome, "usage.jsonl"));

describe("credential files are secrets", () => {
  it("are not returned by Read: the listed ones, every place of the home list, deepcode's home (DEEPCODE_HOME and ~/.deepcode), and token files in the project", async () => {
    const targets = [
      ...Object.keys(LISTED).map((p) => `~/${p}`),
      ...GENERATED.map((p) => `~/${p}`),
      join(box.deepcodeHome, "sessions", "other-project", "20250101-000000-abcdef.jsonl"),
      join(box.deepcodeHome, "usage.jsonl"),
      ".npmrc",
      "auth.json",
      "infra/terraform.tfstate",
    ];
    sim = await startSim({ replies: [{ tool_calls: [...targets.map((f, i) => ({ id: `call_${i}`, name: "Read", arguments: { file_path: f } })), { id: "call_app", name: "Read", arguments: { file_path: "app.ts" } }] }, { content: "done" }] });
    expect(GENERATED.length).toBeGreaterThan(60);
    const run = await runCli({ box, sim, prompt: "read them", args: ["--settings", flag] });
    expect(run.result?.stop_reason, run.stderr).toBe("completed");
    const results = toolResults(sim);
    targets.forEach((f, i) => expect(results.get(`call_${i}`), f).toMatch(/^Permission denied for Read: /));
    expect(results.get("call_app")).toContain("export const ok = 1;");
    expect(everything(sim)).not.toContain("SECRET-");
  }, CLI_HOOK_TIMEOUT_MS);

  it("are left out by a Grep of the home folder that a rule allows, and by a Grep of the project", async () => {
    writeJson(flag, { sandbox: { enabled: false }, permissions: { allow: ["Read(~/**)"] } });
    put(join(box.home, "notes.txt"), "SECRET-free notes\n");
    sim = await startSim({
      replies: [
        { tool_calls: [{ id: "call_home", name: "Grep", arguments: { path: "~", pattern: "SECRET", output_mode: "content" } }, { id: "call_project", name: "Grep", arguments: { pattern: "SECRET", output_mode: "content" } }] },
        { content: "done" },
      ],
    });
    const run = await runCli({ box, sim, prompt: "search", args: ["--settings", flag] });
    expect(run.result?.stop_reason, run.stderr).toBe("completed");
    expect(toolResults(sim).get("call_home")).toContain("notes.txt:1:SECRET-free notes");
    expect(toolResults(sim).get("call_project")).toMatch(/^No matches found/);
    expect(everything(sim).replace(/SECRET-free/g, "")).not.toContain("SECRET-");
  }, CLI_HOOK_TIMEOUT_MS);
});
