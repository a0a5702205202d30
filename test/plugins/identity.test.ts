// Who a plugin is: its parts are namespaced by its name (/<name>:cmd, <name>:skill,
// plugin_<name>_<server>, which allow rules name), so a plugin cannot take another's name; the
// managed tier is earned by a marketplace the policy itself declares, not by an id string; and
// an enabledPlugins key that is not an id is named and skipped, never a crash.
import { afterEach, describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pluginParts } from "../../mods/marketplace/load.js";
import { marketplaceReport } from "../../mods/marketplace/assembly.js";
import { digestOf, recordFiles } from "../../mods/marketplace/files.js";
import { loadSettings } from "../../src/cli/settings/load.js";
import { folderMarket, homeAndProject, verbs } from "./helpers.js";

const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((f) => f()));

const place = () => homeAndProject(cleanups);

function market(name: string, plugins: Record<string, Record<string, string>>) {
  const m = folderMarket(name, plugins);
  cleanups.push(m.cleanup);
  return m;
}

const kit = (name: string) => ({
  ".claude-plugin/plugin.json": JSON.stringify({ name }),
  "commands/review.md": "Review.\n",
  "hooks/hooks.json": JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "true" }] }] } }),
});

function parts(p: { home: string; root: string }, managed?: object) {
  const managedPath = join(p.home, "policy.json");
  if (managed) writeFileSync(managedPath, JSON.stringify(managed));
  return pluginParts({ home: p.home, settings: loadSettings({ root: p.root, home: p.home, managedPath }) });
}

describe("a plugin's name", () => {
  it("refuses an install whose plugin.json name is not its marketplace entry's", async () => {
    const p = place();
    const m = market("acme-tools", { sneaky: kit("review-kit") });
    await verbs(p, ["marketplace", "add", m.dir]);
    const r = await verbs(p, ["install", "sneaky@acme-tools", "--yes-install"]);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`sneaky@acme-tools's plugin.json calls it "review-kit", not sneaky as its marketplace entry does: not installed`);
    expect(r.asked).toEqual([]);
  });

  it("refuses at start a plugin whose plugin.json took another name after install, and loads the rest", async () => {
    const p = place();
    const m = market("acme-tools", { sneaky: kit("sneaky"), other: kit("other") });
    await verbs(p, ["marketplace", "add", m.dir]);
    await verbs(p, ["install", "sneaky@acme-tools", "--yes-install"]);
    await verbs(p, ["install", "other@acme-tools", "--yes-install"]);
    // An install made before the check: plugin.json renamed, and the lock written to match.
    const dir = join(p.home, "plugins", "installed", "sneaky@acme-tools");
    writeFileSync(join(dir, ".claude-plugin", "plugin.json"), JSON.stringify({ name: "review-kit" }));
    const lockFile = join(p.home, "plugins", "lock.json");
    const lock = JSON.parse(readFileSync(lockFile, "utf8"));
    lock.plugins["sneaky@acme-tools"].files = recordFiles(dir);
    lock.plugins["sneaky@acme-tools"].digest = digestOf(lock.plugins["sneaky@acme-tools"].files);
    writeFileSync(lockFile, JSON.stringify(lock));
    const got = parts(p);
    expect(got.plugins.map((x) => x.id)).toEqual(["other@acme-tools"]);
    expect(got.problems).toEqual([expect.stringContaining(`plugin sneaky@acme-tools is NOT loaded: its plugin.json calls it "review-kit", not sneaky`)]);
  });

  it("refuses two enabled plugins with the same name from two marketplaces, loudly, and loads the rest", async () => {
    const p = place();
    const a = market("acme-tools", { "review-kit": kit("review-kit"), other: kit("other") });
    const b = market("evil-tools", { "review-kit": kit("review-kit") });
    await verbs(p, ["marketplace", "add", a.dir]);
    await verbs(p, ["marketplace", "add", b.dir]);
    for (const id of ["review-kit@acme-tools", "review-kit@evil-tools", "other@acme-tools"]) expect((await verbs(p, ["install", id, "--yes-install"])).code).toBe(0);
    const got = parts(p);
    expect(got.plugins.map((x) => x.id)).toEqual(["other@acme-tools"]);
    expect(got.commands.map((c) => c.prefix)).toEqual(["other"]);
    expect(got.problems).toEqual(["plugins review-kit@acme-tools and review-kit@evil-tools are NOT loaded: they have the same name, review-kit, and would share its commands, skills, agents and servers; disable all but one (deepcode plugin disable ID)"]);
  });
});

describe("the managed tier", () => {
  it("runs a managed-enabled plugin in the prepend tier only when the policy declares its marketplace's source", async () => {
    const p = place();
    const m = market("acme", { kit: kit("kit") });
    await verbs(p, ["marketplace", "add", m.dir]);
    await verbs(p, ["install", "kit@acme", "--yes-install"]);
    await verbs(p, ["disable", "kit@acme"]);
    const byId = parts(p, { enabledPlugins: { "kit@acme": true } });
    expect(byId.plugins.map((x) => x.tier)).toEqual(["user"]);
    expect(marketplaceReport(byId).plugins[0].managed).toBe(false);
    expect(byId.problems).toEqual([expect.stringContaining("plugin kit@acme is enabled by the managed policy, but its marketplace acme is not one the policy declares")]);
    const otherPlace = parts(p, { enabledPlugins: { "kit@acme": true }, extraKnownMarketplaces: { acme: { source: { source: "directory", path: "/somewhere/else" } } } });
    expect(otherPlace.plugins.map((x) => x.tier)).toEqual(["user"]);
    const declared = parts(p, { enabledPlugins: { "kit@acme": true }, extraKnownMarketplaces: { acme: { source: { source: "directory", path: m.dir } } } });
    expect(declared.plugins.map((x) => x.tier)).toEqual(["managed"]);
    expect(declared.problems).toEqual([]);
    const strict = parts(p, { enabledPlugins: { "kit@acme": true }, strictKnownMarketplaces: [{ source: "directory", path: m.dir }] });
    expect(strict.plugins.map((x) => x.tier)).toEqual(["managed"]);
  });
});

describe("enabledPlugins keys", () => {
  it("names and skips a key that is not a plugin id, and looks up none of Object's own names", async () => {
    const p = place();
    const file = join(p.home, "settings.json");
    writeFileSync(file, JSON.stringify({ enabledPlugins: { constructor: true, "x@constructor": true, "toString@hasOwnProperty": true } }));
    const got = parts(p);
    expect(got.plugins).toEqual([]);
    expect(got.problems).toEqual([
      `${file}: enabledPlugins: 'constructor' is not a plugin id (<plugin>@<marketplace>); skipped`,
      `plugin x@constructor is enabled (${file}) but not installed: deepcode plugin install x@constructor`,
      `plugin toString@hasOwnProperty is enabled (${file}) but not installed: deepcode plugin install toString@hasOwnProperty`,
    ]);
    const v = await verbs(p, ["verify", "constructor"]);
    expect(v.out).toBe("✗ constructor: not installed");
    const i = await verbs(p, ["install", "x@constructor"]);
    expect(i.out).toBe("deepcode: no marketplace named constructor: add it first (deepcode plugin marketplace add <path | git URL | owner/repo>)");
  });
});
