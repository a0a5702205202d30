// Marketplaces beyond the first add: a folder used where it stands, the managed policy's
// allow-list (strictKnownMarketplaces, hostPattern) and block list checked before anything is
// fetched, settings' extraKnownMarketplaces added when one of its plugins is installed, update
// following the repository, remove — and a refused plugin leaving the others loaded.
import { afterEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chatBodies } from "../helpers/extension.js";
import { FIXTURE, GIT_AVAILABLE, installedDir, PLUGIN_ID, pluginRig, type Rig } from "./helpers.js";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

function policy(r: Rig, managed: object): string {
  const file = join(r.env.home, "policy", "managed-settings.json");
  mkdirSync(join(r.env.home, "policy"), { recursive: true });
  writeFileSync(file, JSON.stringify(managed));
  return file;
}

describe.skipIf(!GIT_AVAILABLE)("marketplaces", () => {
  it("uses a marketplace folder where it stands", async () => {
    rig = await pluginRig();
    const r = await rig.run(["plugin", "marketplace", "add", FIXTURE]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Added marketplace acme-tools (folder ${FIXTURE})`);
    expect(existsSync(join(rig.env.home, "plugins", "marketplaces", "acme-tools"))).toBe(false);
    expect((await rig.run(["plugin", "install", PLUGIN_ID, "--yes-install"])).code).toBe(0);
  });

  it("refuses a marketplace the managed policy's strictKnownMarketplaces does not list, before fetching it", async () => {
    rig = await pluginRig();
    const managed = policy(rig, { strictKnownMarketplaces: [{ source: "github", repo: "acme/approved" }] });
    const r = await rig.run(["plugin", "marketplace", "add", rig.market.bare], { managed });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("the managed policy allows only the marketplaces strictKnownMarketplaces lists");
    expect(existsSync(join(rig.env.home, "plugins", "marketplaces"))).toBe(false);
    const none = policy(rig, { strictKnownMarketplaces: [] });
    expect((await rig.run(["plugin", "marketplace", "add", FIXTURE], { managed: none })).stderr).toContain("allows no marketplaces (strictKnownMarketplaces is empty)");
  });

  it("allows what the allow-list names (a git URL exactly, or hostPattern), and refuses what blockedMarketplaces names", async () => {
    rig = await pluginRig();
    const exact = policy(rig, { strictKnownMarketplaces: [{ source: "git", url: rig.market.bare }] });
    expect((await rig.run(["plugin", "marketplace", "add", rig.market.bare], { managed: exact })).code).toBe(0);
    const hosts = policy(rig, { strictKnownMarketplaces: [{ source: "hostPattern", hostPattern: "^git\\.acme\\.example$" }] });
    const r = await rig.run(["plugin", "marketplace", "add", "https://evil.example/x.git"], { managed: hosts });
    expect(r.stderr).toContain("strictKnownMarketplaces lists");
    const blocked = policy(rig, { blockedMarketplaces: [{ source: "directory", path: FIXTURE }] });
    expect((await rig.run(["plugin", "marketplace", "add", FIXTURE], { managed: blocked })).stderr).toMatch(/the managed policy blocks this marketplace \(blockedMarketplaces/);
  });

  it("holds a marketplace added before the policy restricted them to the policy: no install from it", async () => {
    rig = await pluginRig();
    await rig.run(["plugin", "marketplace", "add", rig.market.bare]);
    const managed = policy(rig, { strictKnownMarketplaces: [{ source: "github", repo: "acme/approved" }] });
    const r = await rig.run(["plugin", "install", PLUGIN_ID, "--yes-install"], { managed });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("cannot install from marketplace acme-tools: the managed policy allows only the marketplaces strictKnownMarketplaces lists");
    expect(existsSync(installedDir(rig.env))).toBe(false);
  });

  it("ignores strictKnownMarketplaces in the person's own settings, with a warning: only a policy can set it", async () => {
    rig = await pluginRig();
    writeFileSync(join(rig.env.home, "settings.json"), JSON.stringify({ strictKnownMarketplaces: [] }));
    const r = await rig.run(["plugin", "marketplace", "add", rig.market.bare]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("'strictKnownMarketplaces' is only honoured in the managed policy (ignored here)");
  });

  it("adds a marketplace that settings declare (extraKnownMarketplaces) when one of its plugins is installed", async () => {
    rig = await pluginRig();
    writeFileSync(join(rig.env.home, "settings.json"), JSON.stringify({ extraKnownMarketplaces: { "acme-tools": { source: { source: "git", url: rig.market.bare } } } }));
    expect((await rig.run(["plugin", "marketplace", "list"])).stdout).toContain("not added yet — installing one of its plugins adds it");
    const r = await rig.run(["plugin", "install", PLUGIN_ID, "--yes-install"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Adding marketplace acme-tools (git ${rig.market.bare}, declared in ${join(rig.env.home, "settings.json")})`);
  });

  it("follows the repository on update, and remove keeps the installed plugins while saying so", async () => {
    rig = await pluginRig();
    await rig.installKit();
    const commit = rig.market.publish({ "plugins/review-kit/CHANGELOG.md": "# 1.0.1\n" }, "changelog");
    const u = await rig.run(["plugin", "marketplace", "update", "acme-tools"]);
    expect(u.stdout).toContain(`→ ${commit.slice(0, 12)})`);
    const r = await rig.run(["plugin", "marketplace", "remove", "acme-tools"]);
    expect(r.stdout).toContain(`Removed marketplace acme-tools. Still installed from it: ${PLUGIN_ID}`);
    expect(existsSync(join(rig.env.home, "plugins", "marketplaces", "acme-tools"))).toBe(false);
    expect(existsSync(installedDir(rig.env))).toBe(true);
  });

  it("holds marketplace update to the managed policy, and never lets its pull run an ext:: command", async () => {
    rig = await pluginRig();
    await rig.run(["plugin", "marketplace", "add", rig.market.bare]);
    const managed = policy(rig, { strictKnownMarketplaces: [{ source: "github", repo: "acme/approved" }] });
    const refused = await rig.run(["plugin", "marketplace", "update", "acme-tools"], { managed });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("cannot update marketplace acme-tools: the managed policy allows only the marketplaces strictKnownMarketplaces lists");
    // The clone's remote now runs a command, and the person's git config allows ext:: URLs.
    const clone = join(rig.env.home, "plugins", "marketplaces", "acme-tools");
    const pwned = join(rig.env.home, "pwned");
    spawnSync("git", ["remote", "set-url", "origin", `ext::sh -c touch% ${pwned}`], { cwd: clone });
    const r = await rig.run(["plugin", "marketplace", "update", "acme-tools"], { env: { GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "protocol.ext.allow", GIT_CONFIG_VALUE_0: "always" } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("git pull failed");
    expect(existsSync(pwned)).toBe(false);
  });

  it("matches hostPattern against the whole host, not a part of it", async () => {
    rig = await pluginRig();
    const hosts = policy(rig, { strictKnownMarketplaces: [{ source: "hostPattern", hostPattern: "git\\.acme\\.example" }] });
    const r = await rig.run(["plugin", "marketplace", "add", "https://git.acme.example.evil.example/x.git"], { managed: hosts });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("strictKnownMarketplaces lists");
  });

  it("loads the other plugins when one is refused for changed files", async () => {
    rig = await pluginRig({ default: { content: "hi there" } });
    const mf = JSON.parse((await import("node:fs")).readFileSync(join(rig.market.work, ".claude-plugin", "marketplace.json"), "utf8"));
    mf.plugins.push({ name: "greeter", source: "./plugins/greeter", description: "says hello" });
    rig.market.publish(
      {
        ".claude-plugin/marketplace.json": JSON.stringify(mf, null, 2),
        "plugins/greeter/.claude-plugin/plugin.json": JSON.stringify({ name: "greeter", version: "0.1.0" }),
        "plugins/greeter/commands/hello.md": "---\ndescription: greet\n---\nSay hello to $ARGUMENTS.\n",
      },
      "add greeter",
    );
    await rig.installKit();
    expect((await rig.run(["plugin", "install", "greeter@acme-tools", "--yes-install"])).code).toBe(0);
    writeFileSync(join(installedDir(rig.env), "README.md"), "changed\n");
    const r = await rig.run(["-p", "/greeter:hello Ada"]);
    expect(r.stderr).toContain(`plugin ${PLUGIN_ID} is NOT loaded`);
    expect(r.stderr).not.toContain("greeter@acme-tools is NOT loaded");
    const body = chatBodies(rig.sim.requests)[0];
    expect(String(body.messages.at(-1)?.content)).toBe("Say hello to Ada.");
  });
});
