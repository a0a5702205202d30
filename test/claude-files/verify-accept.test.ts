// A person who changed an installed plugin on purpose — hookify's known workaround is a symlink
// inside the plugin's folder — can see exactly what changed (`deepcode plugin verify ID`: each
// file added, modified or removed, a link with its target) and re-pin it (`--accept`), after
// which it loads; any later change is refused again.
import { rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { bodies, filesRig, systemOf, type FilesRig } from "./helpers.js";

let rig: FilesRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const ID = "plugin-kit@cc-files";

describe("deepcode plugin verify", () => {
  it("lists each change, and --accept re-pins a plugin changed on purpose so that it loads", async () => {
    rig = await filesRig(["plugin-kit"], { default: { content: "ok" } });
    const dir = rig.installed("plugin-kit");
    symlinkSync(".", join(dir, "hookify"));
    writeFileSync(join(dir, "agents", "reviewer.md"), "---\nname: skill-reviewer\ndescription: Reviews skills, edited locally\n---\n\nYou are SKILL-REVIEWER.\n");
    rmSync(join(dir, "agents", "broken.md"));

    const refused = await rig.run(["-p", "hello"]);
    expect(refused.stderr).toMatch(/plugin plugin-kit@cc-files is NOT loaded: its files changed/);
    expect(refused.stderr).toContain(`deepcode plugin verify ${ID} --accept`);
    expect(systemOf(bodies(rig.sim)[0])).not.toContain("plugin-kit:");

    const shown = await rig.run(["plugin", "verify", ID]);
    expect(shown.code).toBe(1);
    expect(shown.stdout).toContain(`✗ ${ID}: its files changed since install:\n    added     hookify -> . (a symlink)\n    modified  agents/reviewer.md\n    removed   agents/broken.md\n`);

    const bare = await rig.run(["plugin", "verify", "--accept"]);
    expect(bare.code).toBe(2);

    const accepted = await rig.run(["plugin", "verify", ID, "--accept"]);
    expect(accepted.code).toBe(0);
    expect(accepted.stdout).toMatch(/Accepted: the lock now pins these \d+ files/);

    const loaded = await rig.run(["-p", "hello"]);
    expect(loaded.code).toBe(0);
    expect(loaded.stderr).not.toMatch(/NOT loaded/);
    const system = systemOf(bodies(rig.sim).at(-1));
    expect(system).toContain("- plugin-kit:hook-development:");
    expect(system).toContain("- plugin-kit:skill-reviewer: Reviews skills, edited locally");
    expect((await rig.run(["plugin", "verify", ID])).stdout).toMatch(/✓ plugin-kit@cc-files: all \d+ files match the lock/);

    // The link pointed elsewhere afterwards is a change like any other.
    unlinkSync(join(dir, "hookify"));
    symlinkSync("/etc", join(dir, "hookify"));
    const again = await rig.run(["plugin", "verify", ID]);
    expect(again.code).toBe(1);
    expect(again.stdout).toContain("    modified  hookify -> /etc (a symlink)\n");
    expect((await rig.run(["-p", "hello"])).stderr).toMatch(/plugin plugin-kit@cc-files is NOT loaded/);
  });
});
