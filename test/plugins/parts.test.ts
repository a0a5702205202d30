// What an enabled plugin contributes, part by part (mods/marketplace/load.ts): command folders
// for the custom-command loader, skill and agent folders waiting for the skills and agents mods
// (the hand-off lists), hooks for the hooks mod with the plugin's variables, MCP servers for the
// MCP configuration — and what workspace trust and the managed policy do to the list.
import { afterEach, describe, expect, it } from "vitest";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadSettings } from "../../src/cli/settings/load.js";
import { applyTrust, resolveTrust } from "../../src/cli/trust/index.js";
import { pluginParts } from "../../mods/marketplace/load.js";
import { marketplaceReport } from "../../mods/marketplace/assembly.js";
import { parseMarketArg } from "../../mods/marketplace/marketplaces.js";
import { githubUrl } from "../../mods/marketplace/manifest.js";
import { GIT_AVAILABLE, installedDir, PLUGIN_ID, pluginRig, type Rig } from "./helpers.js";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

function partsOf(r: Rig, o: { managed?: object; trusted?: boolean } = {}) {
  const managedPath = join(r.env.home, "policy", "managed-settings.json");
  if (o.managed) {
    mkdirSync(join(r.env.home, "policy"), { recursive: true });
    writeFileSync(managedPath, JSON.stringify(o.managed));
  }
  const read = loadSettings({ root: r.env.root, home: r.env.home, managedPath });
  const trust = resolveTrust({ root: r.env.root, home: r.env.home, userHome: r.env.home, settings: read, flag: o.trusted });
  return { parts: pluginParts({ home: r.env.home, settings: applyTrust(read, trust) }), trust };
}

describe.skipIf(!GIT_AVAILABLE)("an enabled plugin's parts", () => {
  it("lists the command folder, the skill and agent folders (which the skills and agents mods load), hooks and servers", async () => {
    rig = await pluginRig();
    await rig.installKit();
    const dir = installedDir(rig.env);
    const { parts } = partsOf(rig);
    expect(parts.problems).toEqual([]);
    expect(parts.plugins.map((p) => [p.id, p.tier])).toEqual([[PLUGIN_ID, "user"]]);
    // Each with the lock's hash of every file (pins), which a loader reading them again checks.
    const pins = expect.objectContaining({ [join(dir, "commands", "review.md")]: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(parts.commands).toEqual([{ plugin: PLUGIN_ID, prefix: "review-kit", dir: join(dir, "commands"), pins, vars: expect.objectContaining({ CLAUDE_PLUGIN_ROOT: dir }) }]);
    expect(parts.skillDirs).toEqual([{ plugin: PLUGIN_ID, name: "review-kit", dir: join(dir, "skills"), pins }]);
    expect(parts.agentDirs).toEqual([{ plugin: PLUGIN_ID, name: "review-kit", dir: join(dir, "agents"), pins }]);
    const [plugin] = marketplaceReport(parts).plugins;
    expect(plugin.managed).toBe(false);
    const layer = plugin.hooks!;
    expect(layer.hooks).toEqual({ PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `${dir}/hooks/no-force-push.sh`, timeout: 10 }] }] });
    expect(layer.env).toMatchObject({ CLAUDE_PLUGIN_ROOT: dir, DEEPCODE_PLUGIN_ROOT: dir, CLAUDE_PLUGIN_DATA: join(rig.env.home, "plugins", "data", PLUGIN_ID) });
    expect(marketplaceReport(parts).plugins.flatMap((p) => p.servers)).toEqual([
      { name: "plugin_review-kit_notes", file: join(dir, ".mcp.json"), config: { command: "node", args: [`${dir}/servers/notes.mjs`], env: { NOTES_FILE: join(rig.env.home, "plugins", "data", PLUGIN_ID, "notes.txt") } } },
    ]);
  });

  it("adds the folders plugin.json names to the default ones", async () => {
    rig = await pluginRig();
    const pj = join(rig.market.work, "plugins", "review-kit", ".claude-plugin", "plugin.json");
    const { readFileSync } = await import("node:fs");
    const manifest = JSON.parse(readFileSync(pj, "utf8"));
    rig.market.publish(
      {
        "plugins/review-kit/.claude-plugin/plugin.json": JSON.stringify({ ...manifest, commands: ["./extra/one.md"], skills: "./more-skills/", agents: ["./team/"] }),
        "plugins/review-kit/extra/one.md": "---\ndescription: one more\n---\nOne.\n",
        "plugins/review-kit/more-skills/lint/SKILL.md": "---\nname: lint\ndescription: lint\n---\nLint.\n",
        "plugins/review-kit/team/pair.md": "---\nname: pair\ndescription: pairs\n---\nPair.\n",
      },
      "extra paths",
    );
    await rig.installKit();
    const dir = installedDir(rig.env);
    const { parts } = partsOf(rig);
    expect(parts.commands.map((c) => c.dir ?? c.file)).toEqual([join(dir, "commands"), join(dir, "extra", "one.md")]);
    expect(parts.skillDirs.map((s) => s.dir)).toEqual([join(dir, "skills"), join(dir, "more-skills")]);
    expect(parts.agentDirs.map((s) => s.dir)).toEqual([join(dir, "agents"), join(dir, "team")]);
  });

  it("takes a project's enabledPlugins only once the project is trusted (enabling a plugin loosens)", async () => {
    rig = await pluginRig();
    await rig.run(["plugin", "marketplace", "add", rig.market.bare]);
    await rig.run(["plugin", "install", PLUGIN_ID, "--scope", "project", "--yes-install"]);
    const untrusted = partsOf(rig);
    expect(untrusted.parts.plugins).toEqual([]);
    expect(untrusted.trust.items.map((i) => i.what)).toContain(`enable plugin ${PLUGIN_ID} (its hooks, MCP servers and commands run)`);
    expect(partsOf(rig, { trusted: true }).parts.plugins.map((p) => p.id)).toEqual([PLUGIN_ID]);
  });

  it("lets the managed policy force a plugin off, whatever the person's settings say", async () => {
    rig = await pluginRig();
    await rig.installKit();
    const { parts } = partsOf(rig, { managed: { enabledPlugins: { [PLUGIN_ID]: false } } });
    expect(parts.plugins).toEqual([]);
  });

  it("runs the hooks of a plugin the managed policy enables, from a marketplace it declares, in the managed (prepend) layer", async () => {
    rig = await pluginRig();
    await rig.installKit();
    await rig.run(["plugin", "disable", PLUGIN_ID]);
    const { parts } = partsOf(rig, { managed: { enabledPlugins: { [PLUGIN_ID]: true }, extraKnownMarketplaces: { "acme-tools": { source: { source: "git", url: rig.market.bare } } } } });
    expect(parts.plugins.map((p) => p.tier)).toEqual(["managed"]);
    expect(marketplaceReport(parts).plugins[0].managed).toBe(true);
  });

  it("refuses an installed plugin whose marketplace the managed policy does not allow", async () => {
    rig = await pluginRig();
    await rig.installKit();
    const { parts } = partsOf(rig, { managed: { strictKnownMarketplaces: [{ source: "github", repo: "acme/approved-plugins" }] } });
    expect(parts.plugins).toEqual([]);
    expect(parts.problems).toEqual([`plugin ${PLUGIN_ID} is NOT loaded: the managed policy allows only the marketplaces strictKnownMarketplaces lists, and this is not one of them`]);
  });

  it("names a plugin that is enabled but not installed", async () => {
    rig = await pluginRig();
    writeFileSync(join(rig.env.home, "settings.json"), JSON.stringify({ enabledPlugins: { "ghost@nowhere": true } }));
    expect(partsOf(rig).parts.problems).toEqual([`plugin ghost@nowhere is enabled (${join(rig.env.home, "settings.json")}) but not installed: deepcode plugin install ghost@nowhere`]);
  });
});

describe("marketplace sources as typed after `marketplace add`", () => {
  it("maps GitHub's owner/repo shorthand to its repository, with #ref as a branch or tag", () => {
    expect(parseMarketArg("anthropics/claude-code", "/nowhere")).toEqual({ source: "github", repo: "anthropics/claude-code" });
    expect(parseMarketArg("acme/plugins#v2", "/nowhere")).toEqual({ source: "github", repo: "acme/plugins", ref: "v2" });
    expect(githubUrl("anthropics/claude-code")).toBe("https://github.com/anthropics/claude-code.git"); // what git clones
  });

  it("reads git URLs (https, ssh, scp-style, file) as git sources", () => {
    expect(parseMarketArg("https://gitlab.example/team/plugins.git", "/nowhere")).toEqual({ source: "git", url: "https://gitlab.example/team/plugins.git" });
    expect(parseMarketArg("git@github.com:acme/plugins.git#main", "/nowhere")).toEqual({ source: "git", url: "git@github.com:acme/plugins.git", ref: "main" });
    expect(parseMarketArg("file:///srv/plugins.git", "/nowhere")).toEqual({ source: "git", url: "file:///srv/plugins.git" });
  });

  it("refuses what is none of a folder, a git URL or owner/repo", () => {
    expect(() => parseMarketArg("not a source", "/nowhere")).toThrow(/is not a folder, a git URL or a GitHub owner\/repo/);
  });
});
