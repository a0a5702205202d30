// Workspace trust in the REPL, in a real terminal: a project holding something that runs code
// (a SessionStart hook, a command's !`cmd`) is asked about once, before any of it can run; the
// answer is remembered for exactly what the project holds, and a change asks again.
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startSimulator, type Simulator } from "../sim/server.mjs";
import { TMUX_AVAILABLE, Tmux } from "../helpers/tmux.js";
import { BIN, cliEnv, type CliEnv } from "../helpers/cli-env.js";

let sim: Simulator | undefined;
let term: Tmux | undefined;
let env: CliEnv | undefined;
afterEach(async () => {
  term?.kill();
  await sim?.close();
  env?.cleanup();
  term = sim = env = undefined;
});

const BANNER = /· session \d{8}-\d{6}-[0-9a-f]{6} ·/;

/** A project whose settings run a hook at session start (it leaves a marker in the project: the
 *  hook runs in the sandbox, where nothing outside the project is writable). */
async function project(): Promise<CliEnv> {
  sim = await startSimulator({ script: { default: { content: "hi" } }, apiKey: "sk-test-cli" });
  env = cliEnv(sim.url);
  const marker = join(env.root, "hook-ran");
  env.write(".deepcode/settings.json", JSON.stringify({ estimate: "off", hooks: { SessionStart: [{ hooks: [{ type: "command", command: `touch '${marker}'` }] }] } }));
  env.write(".deepcode/commands/files.md", "---\nallowed-tools: Bash(ls:*)\n---\nFiles: !`ls -1`\n");
  return env;
}

function start(e: CliEnv): Tmux {
  term = new Tmux(`node ${BIN}`, { cwd: e.root, env: e.env });
  return term;
}

describe.skipIf(!TMUX_AVAILABLE)("the trust question in the REPL", () => {
  it("shows what trusting would let take effect, and 'no' keeps all of it from running", async () => {
    const e = await project();
    const t = start(e);
    const s = await t.waitFor(/Trust it\?/);
    expect(s).toMatch(/\? Do you trust this project\?/);
    expect(s).toMatch(/run SessionStart hook: touch .*hook-ran/);
    expect(s).toMatch(/\/files allows Bash\(ls:\*\) while it runs/);
    expect(s).toMatch(/\/files runs `ls -1`/);
    t.type("n");
    t.press("Enter");
    await t.waitFor(BANNER);
    await t.waitFor(/^›\s*$/m);
    expect(existsSync(join(e.root, "hook-ran"))).toBe(false);
    t.type("/status");
    t.press("Enter");
    await t.waitFor(/trust {6}untrusted: 3 settings or commands that loosen rules or run code are ignored \(you declined\)/);
  });

  it("takes one key (no Enter), and is not asked again for a declined project that has not changed", async () => {
    const e = await project();
    let t = start(e);
    await t.waitFor(/Trust it\?/);
    t.type("n");
    await t.waitFor(/kept untrusted/);
    await t.waitFor(/^›\s*$/m);
    t.type("/trust yes");
    t.press("Enter");
    await t.waitFor(/trusted — this takes effect when deepcode next starts/);
    t.type("/trust");
    t.press("Enter");
    await t.waitFor(/: trusted \(you answered \/trust yes in this session\); this session still runs it as untrusted/);
    t.type("/trust no");
    t.press("Enter");
    await t.waitFor(/^›\s*$/m);
    t.press("C-d");
    await t.waitFor(/\[exit 0\]/);
    t.kill();
    t = start(e);
    await t.waitFor(BANNER);
    expect(t.screen()).not.toMatch(/Trust it\?/);
  });

  it("'yes' lets the hook run, and a changed project is asked about again", async () => {
    const e = await project();
    let t = start(e);
    await t.waitFor(/Trust it\?/);
    t.type("y");
    t.press("Enter");
    await t.waitFor(BANNER); // the session has started (SessionStart ran before the banner)
    expect(existsSync(join(e.root, "hook-ran"))).toBe(true);
    t.press("C-d");
    await t.waitFor(/\[exit 0\]/);
    t.kill();
    writeFileSync(join(e.root, ".deepcode", "commands", "deploy.md"), "Deploy: !`./deploy.sh`\n");
    t = start(e);
    const s = await t.waitFor(/Trust it\?/);
    expect(s).toMatch(/This project changed since you last answered/);
    expect(s).toMatch(/\/deploy runs `\.\/deploy\.sh`/);
  });

  it("keeps an untrusted project's command from running its !`cmd` lines", async () => {
    const e = await project();
    const t = start(e);
    await t.waitFor(/Trust it\?/);
    t.type("n");
    await t.waitFor(/^›\s*$/m);
    t.type("/files");
    t.press("Enter");
    await t.waitFor(/allowed-tools and !`cmd` lines are ignored/);
    await t.waitFor(/^hi$/m); // the turn's reply: its request has been made
    const prompt = sim!.requests.map((r) => JSON.stringify(r.json ?? {})).join("\n");
    expect(prompt).toContain("not run: this project is not trusted");
  });
});
