// A plugin that links one of its own folders to another (compound-engineering's repository is
// its own plugin, with `.claude/skills -> ../.agents/skills` and `CLAUDE.md -> AGENTS.md`)
// installs: the link resolves inside the plugin, so the copy holds that folder. Only a link
// that leaves the plugin refuses the install, naming the link and saying how to go on.
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { tempFolders, verbs } from "./helpers.js";

const folders = tempFolders();
afterEach(() => folders.clean());
const tmp = folders.make;

function write(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
}

/** A repository that is its own marketplace's one plugin (`"source": "./"`), in the shape of
 *  compound-engineering: real skills under `.agents/skills`, linked from `.claude/skills`. */
function compoundShape(): string {
  const dir = tmp("deepcode-compound-");
  write(dir, {
    ".claude-plugin/marketplace.json": JSON.stringify({ name: "compound-market", owner: { name: "Someone" }, plugins: [{ name: "compound", description: "Plan and review", source: "./" }] }),
    ".claude-plugin/plugin.json": JSON.stringify({ name: "compound", version: "1.0.0", description: "Plan and review" }),
    ".agents/skills/ce-plan/SKILL.md": "---\nname: ce-plan\ndescription: Turn an idea into a plan\n---\nWrite the plan to docs/plans.\n",
    "skills/ce-review/SKILL.md": "---\nname: ce-review\ndescription: Review a change\n---\nReview it.\n",
    "AGENTS.md": "# Working here\nRun bun test.\n",
  });
  mkdirSync(join(dir, ".claude"));
  symlinkSync("../.agents/skills", join(dir, ".claude", "skills"));
  symlinkSync("AGENTS.md", join(dir, "CLAUDE.md"));
  return dir;
}

describe("links inside a plugin at install", () => {
  it("installs a plugin whose folder link resolves inside it, copying the folder the link names", async () => {
    const p = { home: tmp("deepcode-links-home-"), root: tmp("deepcode-links-proj-") };
    const market = compoundShape();
    expect((await verbs(p, ["marketplace", "add", market])).code).toBe(0);
    const r = await verbs(p, ["install", "compound@compound-market", "--yes-install"]);
    expect(r.out).not.toMatch(/symlink/);
    expect(r.code).toBe(0);
    const dir = join(p.home, "plugins", "installed", "compound@compound-market");
    expect(lstatSync(join(dir, ".claude", "skills")).isDirectory()).toBe(true);
    expect(readFileSync(join(dir, ".claude", "skills", "ce-plan", "SKILL.md"), "utf8")).toContain("Write the plan");
    expect(readFileSync(join(dir, "CLAUDE.md"), "utf8")).toBe("# Working here\nRun bun test.\n");
    // Installed and intact: the check at start-up finds nothing changed.
    expect((await verbs(p, ["verify", "compound@compound-market"])).code).toBe(0);
  });

  it("refuses a link that leaves the plugin, naming the link and how to proceed", async () => {
    const p = { home: tmp("deepcode-links-home-"), root: tmp("deepcode-links-proj-") };
    const market = compoundShape();
    const outside = tmp("deepcode-links-outside-");
    writeFileSync(join(outside, "notes.md"), "private\n");
    symlinkSync(outside, join(market, "docs"));
    expect((await verbs(p, ["marketplace", "add", market])).code).toBe(0);
    const r = await verbs(p, ["install", "compound@compound-market", "--yes-install"]);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`docs is a symlink that leads outside the plugin (to ${outside}), so the plugin is not installed`);
    expect(r.out).toContain("Ask its author to ship the files instead of the link");
    expect(r.out).toContain("deepcode plugin marketplace add <folder>");
    expect(existsSync(join(p.home, "plugins", "installed", "compound@compound-market"))).toBe(false);
  });
});
