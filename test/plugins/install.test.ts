// Adding a marketplace (a bare git repository made here) and installing a Claude Code plugin
// from it with the real CLI: what the plugin brings is shown before anything is installed, an
// install without a terminal needs --yes-install, the lock records every file's sha256, a pin
// that does not match refuses the install, and uninstall leaves nothing behind.
import { afterEach, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { GIT_AVAILABLE, installedDir, PLUGIN_ID, pluginRig, type Rig } from "./helpers.js";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const json = (file: string) => JSON.parse(readFileSync(file, "utf8"));


/** The person's settings as the plugin verbs left them, without the test rig's own sandbox key
 *  (test/helpers/cli-env.ts turns the sandbox's auto-allow off for every CLI test). */
function personal(home: string): Record<string, unknown> {
  const file = join(home, "settings.json");
  if (!existsSync(file)) return {};
  const all = json(file) as Record<string, unknown>;
  delete all.sandbox;
  return all;
}

describe.skipIf(!GIT_AVAILABLE)("installing a plugin from a marketplace", () => {
  it("adds a git marketplace by its path and lists the plugins it offers", async () => {
    rig = await pluginRig();
    const r = await rig.run(["plugin", "marketplace", "add", rig.market.bare]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Added marketplace acme-tools \(git .*acme-tools\.git at [0-9a-f]{12}\): 1 plugin, by Acme Developer Experience/);
    expect(r.stdout).toContain("review-kit@acme-tools 1.0.0 — Code review helpers");
    const known = json(join(rig.env.home, "plugins", "known_marketplaces.json"));
    expect(known["acme-tools"].source).toEqual({ source: "git", url: rig.market.bare });
    expect(existsSync(join(rig.env.home, "plugins", "marketplaces", "acme-tools", ".claude-plugin", "marketplace.json"))).toBe(true);
    const list = await rig.run(["plugin", "marketplace", "list"]);
    expect(list.stdout).toMatch(/^acme-tools {2}git .*acme-tools\.git at [0-9a-f]{12} {2}\(1 plugins\)$/m);
    const plugins = await rig.run(["plugin", "list"]);
    expect(plugins.stdout).toContain("No plugins installed.");
    expect(plugins.stdout).toContain("review-kit@acme-tools 1.0.0 — Code review helpers");
  });

  it("shows what the plugin brings that can run code, and installs nothing without a yes", async () => {
    rig = await pluginRig();
    await rig.run(["plugin", "marketplace", "add", rig.market.bare]);
    const r = await rig.run(["plugin", "install", PLUGIN_ID]);
    expect(r.code).toBe(1);
    const dir = installedDir(rig.env);
    expect(r.stdout).toContain(`! runs a PreToolUse (Bash) hook: ${dir}/hooks/no-force-push.sh`);
    expect(r.stdout).toContain(`! starts MCP server plugin_review-kit_notes: node ${dir}/servers/notes.mjs`);
    expect(r.stdout).toContain("commands: /review-kit:review");
    expect(r.stdout).toContain("skills: changelog");
    expect(r.stdout).toContain("agents: code-reviewer");
    expect(r.stderr).toMatch(/nobody can answer here \(no terminal\); pass --yes-install to agree/);
    expect(existsSync(dir)).toBe(false);
    expect(existsSync(join(rig.env.home, "plugins", "lock.json"))).toBe(false);
    expect(personal(rig.env.home)).toEqual({});
  });

  it("installs with --yes-install: its files, a lock with each file's sha256, and enabledPlugins as Claude Code writes it", async () => {
    rig = await pluginRig();
    await rig.installKit();
    const dir = installedDir(rig.env);
    const lock = json(join(rig.env.home, "plugins", "lock.json")).plugins[PLUGIN_ID];
    expect(lock).toMatchObject({ name: "review-kit", marketplace: "acme-tools", version: "1.0.0", source: "./plugins/review-kit" });
    expect(lock.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(Object.keys(lock.files).sort()).toEqual([
      ".claude-plugin/plugin.json",
      ".mcp.json",
      "README.md",
      "agents/code-reviewer.md",
      "commands/review.md",
      "hooks/hooks.json",
      "hooks/no-force-push.sh",
      "servers/notes.mjs",
      "skills/changelog/SKILL.md",
    ]);
    for (const [rel, rec] of Object.entries(lock.files as Record<string, { sha256: string; mode: number }>)) {
      expect(rec.sha256).toBe(createHash("sha256").update(readFileSync(join(dir, rel))).digest("hex"));
    }
    expect(lock.files["hooks/no-force-push.sh"].mode & 0o111).not.toBe(0);
    expect(personal(rig.env.home)).toEqual({ enabledPlugins: { [PLUGIN_ID]: true } });
    const list = await rig.run(["plugin", "list"]);
    expect(list.stdout).toMatch(/✓ review-kit@acme-tools 1\.0\.0\n {4}enabled \(user\); 9 files as installed; sha256 [0-9a-f]{64}/);
    expect(list.stdout).toContain("    commands /review-kit:review; skills changelog; agents code-reviewer; 1 hook; 1 MCP server");
    const again = await rig.run(["plugin", "install", PLUGIN_ID, "--yes-install"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("is already installed");
  });

  it("installs into the project scope when asked, and a bare name finds its marketplace", async () => {
    rig = await pluginRig();
    await rig.run(["plugin", "marketplace", "add", rig.market.bare]);
    const r = await rig.run(["plugin", "install", "review-kit", "--scope", "project", "--yes-install"]);
    expect(r.code).toBe(0);
    expect(json(join(rig.env.root, ".deepcode", "settings.json"))).toEqual({ enabledPlugins: { [PLUGIN_ID]: true } });
    expect(personal(rig.env.home)).toEqual({});
  });

  it("refuses an install whose files do not have the sha256 the marketplace pins, and installs when they do", async () => {
    rig = await pluginRig();
    const mf = JSON.parse(readFileSync(join(rig.market.work, ".claude-plugin", "marketplace.json"), "utf8"));
    mf.plugins[0].sha256 = "0".repeat(64);
    rig.market.publish({ ".claude-plugin/marketplace.json": JSON.stringify(mf, null, 2) }, "pin a wrong digest");
    await rig.run(["plugin", "marketplace", "add", rig.market.bare]);
    const r = await rig.run(["plugin", "install", PLUGIN_ID, "--yes-install"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/files do not match the sha256 its marketplace pins \(pinned 0{64}, the files have [0-9a-f]{64}\): not installed/);
    expect(existsSync(installedDir(rig.env))).toBe(false);
    const digest = (await rig.run(["plugin", "digest", join(rig.market.work, "plugins", "review-kit")])).stdout.trim();
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    mf.plugins[0].sha256 = digest;
    rig.market.publish({ ".claude-plugin/marketplace.json": JSON.stringify(mf, null, 2) }, "pin the right digest");
    await rig.run(["plugin", "marketplace", "update", "acme-tools"]);
    const ok = await rig.run(["plugin", "install", PLUGIN_ID, "--yes-install"]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain(`sha256 ${digest} (as pinned)`);
  });

  it("installs a plugin from its own git repository at the commit the marketplace pins, and refuses a commit that is not there", async () => {
    rig = await pluginRig();
    // review-kit's own repository: the marketplace's working copy doubles as it (a git-subdir source).
    const sha = rig.market.publish({ "plugins/review-kit/NOTICE": "pinned\n" }, "the pinned commit");
    rig.market.publish({ "plugins/review-kit/NOTICE": "later\n" }, "a later commit");
    const mf = JSON.parse(readFileSync(join(rig.market.work, ".claude-plugin", "marketplace.json"), "utf8"));
    mf.plugins[0].source = { source: "git-subdir", url: rig.market.bare, path: "plugins/review-kit", sha };
    rig.market.publish({ ".claude-plugin/marketplace.json": JSON.stringify(mf, null, 2) }, "pin review-kit by commit");
    await rig.run(["plugin", "marketplace", "add", rig.market.bare]);
    const r = await rig.run(["plugin", "install", PLUGIN_ID, "--yes-install"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`at ${sha.slice(0, 12)}`);
    expect(readFileSync(join(installedDir(rig.env), "NOTICE"), "utf8")).toBe("pinned\n");
    expect(json(join(rig.env.home, "plugins", "lock.json")).plugins[PLUGIN_ID].commit).toBe(sha);
    await rig.run(["plugin", "uninstall", PLUGIN_ID]);
    mf.plugins[0].source.sha = "0123456789abcdef0123456789abcdef01234567";
    rig.market.publish({ ".claude-plugin/marketplace.json": JSON.stringify(mf, null, 2) }, "pin a commit that does not exist");
    await rig.run(["plugin", "marketplace", "update", "acme-tools"]);
    const bad = await rig.run(["plugin", "install", PLUGIN_ID, "--yes-install"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("the pinned commit 0123456789abcdef0123456789abcdef01234567 is not in");
    expect(existsSync(installedDir(rig.env))).toBe(false);
  });

  it("uninstall leaves nothing: no files, no data folder, no lock entry, no enabledPlugins entry", async () => {
    rig = await pluginRig();
    await rig.installKit();
    const r = await rig.run(["plugin", "uninstall", PLUGIN_ID]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Uninstalled ${PLUGIN_ID}`);
    expect(readdirSync(join(rig.env.home, "plugins", "installed"))).toEqual([]);
    expect(existsSync(join(rig.env.home, "plugins", "data", PLUGIN_ID))).toBe(false);
    expect(json(join(rig.env.home, "plugins", "lock.json")).plugins).toEqual({});
    expect(personal(rig.env.home)).toEqual({});
    const list = await rig.run(["plugin", "list"]);
    expect(list.stdout).toContain("No plugins installed.");
  });

  it("enable and disable write enabledPlugins in the scope they are given", async () => {
    rig = await pluginRig();
    await rig.installKit();
    expect((await rig.run(["plugin", "disable", PLUGIN_ID, "--scope", "local"])).code).toBe(0);
    expect(json(join(rig.env.root, ".deepcode", "settings.local.json"))).toEqual({ enabledPlugins: { [PLUGIN_ID]: false } });
    const list = await rig.run(["plugin", "list"]);
    expect(list.stdout).toContain("disabled (local)");
    expect((await rig.run(["plugin", "enable", "nope@acme-tools"])).stderr).toContain("nope@acme-tools is not installed");
  });
});
