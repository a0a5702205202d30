// `/status` in the REPL says which settings files are in force — Claude Code's among them — and
// where each permission rule came from (file and line), in a real terminal.
import { describe, expect, it } from "vitest";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { enter, useRepl } from "../repl/helpers.js";
import { sandboxStatus } from "../../mods/sandbox/index.js";

const repl = useRepl();

describe("/status with Claude Code settings files", () => {
  it("lists ~/.claude/settings.json and .claude/settings.json as settings, and each rule with its file and line", async () => {
    const t = await repl.open({ default: { content: "fine" } }, {
      ".claude/settings.json": '{\n  "permissions": {\n    "allow": [\n      "Bash(npm test:*)"\n    ]\n  }\n}\n',
    }, {
      before: (env) => {
        mkdirSync(join(env.home, ".claude"), { recursive: true });
        writeFileSync(join(env.home, ".claude", "settings.json"), '{\n  "model": "sonnet",\n  "permissions": { "deny": ["Read(./.env)"] }\n}\n');
      },
    });
    enter(t, "/status");
    const s = await t.waitFor(/rules\s+2 /);
    expect(s).toMatch(/settings\s+~\/\.claude\/settings\.json \(user, Claude Code's\), .*\.claude\/settings\.json \(project, Claude Code's\)/);
    expect(s).toMatch(/deny\s+Read\(\.\/\.env\)\s+~\/\.claude\/settings\.json:3/);
    expect(s).toMatch(/allow\s+Bash\(npm test:\*\)\s+\.claude\/settings\.json:4/);
    expect(s).toMatch(/model\s+deepseek/);
  });

  it.skipIf(!sandboxStatus().active)("says which hosts the Bash sandbox reaches (sandbox.network.allowedDomains)", async () => {
    const t = await repl.open({ default: { content: "fine" } }, {
      // deepcode's own file: Claude Code's `sandbox` key is not taken from .claude/ (claude.ts).
      ".deepcode/settings.json": JSON.stringify({ sandbox: { network: { allowedDomains: ["registry.npmjs.org", "*.pypi.org"] } } }),
    });
    enter(t, "/status");
    const s = await t.waitFor(/sandbox\s+bwrap/);
    expect(s).toMatch(/sandbox\s+bwrap: writes only in the workspace, network only to registry\.npmjs\.org, \*\.pypi\.org/);
  });
});
