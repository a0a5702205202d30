// Two plugin shapes besides review-kit: a deepcode-native module shipped in the same folder
// (`"deepcode": "./index.mjs"` in plugin.json), loaded through the plugin loader like any
// plugin, and a plugin without plugin.json whose marketplace entry (`strict: false`) names its
// parts — still defined by that entry at every later start.
import { afterEach, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { chatBodies } from "../helpers/extension.js";
import { GIT_AVAILABLE, pluginRig, type Rig } from "./helpers.js";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const NATIVE = `export default {
  id: "native-kit",
  register(api) {
    api.on("context.system", async (e, next) => {
      const r = await next();
      return { sections: [...r.sections, { id: "native-kit", text: "NATIVE-KIT-LOADED from " + api.id }] };
    });
  },
};
`;

function addPlugins(r: Rig): void {
  const file = join(r.market.work, ".claude-plugin", "marketplace.json");
  const mf = JSON.parse(readFileSync(file, "utf8"));
  mf.plugins.push({ name: "native-kit", source: "./plugins/native-kit", description: "a deepcode module" });
  mf.plugins.push({ name: "loose", source: "./plugins/loose", strict: false, commands: ["./prompts/"], description: "no plugin.json" });
  r.market.publish(
    {
      ".claude-plugin/marketplace.json": JSON.stringify(mf, null, 2),
      "plugins/native-kit/.claude-plugin/plugin.json": JSON.stringify({ name: "native-kit", version: "0.2.0", deepcode: "./index.mjs" }),
      "plugins/native-kit/index.mjs": NATIVE,
      "plugins/loose/prompts/tidy.md": "---\ndescription: tidy up\n---\nTidy $ARGUMENTS.\n",
    },
    "two more plugins",
  );
}

describe.skipIf(!GIT_AVAILABLE)("other plugin shapes", () => {
  it("loads a plugin's deepcode module, and its install says it runs inside deepcode", async () => {
    rig = await pluginRig();
    addPlugins(rig);
    await rig.run(["plugin", "marketplace", "add", rig.market.bare]);
    const r = await rig.run(["plugin", "install", "native-kit@acme-tools", "--yes-install"]);
    expect(r.stdout).toContain("! loads a deepcode module, loaded into deepcode itself: index.mjs");
    const p = await rig.run(["-p", "hi"]);
    expect(p.stderr).not.toMatch(/did not load|NOT loaded/);
    expect(String(chatBodies(rig.sim.requests)[0].messages[0].content)).toContain("NATIVE-KIT-LOADED from native-kit");
  });

  it("takes the parts of a plugin without plugin.json from its marketplace entry, at every start", async () => {
    rig = await pluginRig({ default: { content: "tidied" } });
    addPlugins(rig);
    await rig.run(["plugin", "marketplace", "add", rig.market.bare]);
    const r = await rig.run(["plugin", "install", "loose@acme-tools", "--yes-install"]);
    expect(r.stdout).toContain("commands: /loose:tidy");
    const p = await rig.run(["-p", "/loose:tidy the docs"]);
    expect(p.code).toBe(0);
    expect(String(chatBodies(rig.sim.requests)[0].messages.at(-1)?.content)).toBe("Tidy the docs.");
  });
});
