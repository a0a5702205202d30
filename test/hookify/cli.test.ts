// hookify rules, unchanged, through the real CLI: a block rule stops `rm -rf` with its message
// (in an untrusted project too: rules only tighten), a warn rule's message follows the call's
// result, a broken rule is reported with file and line and disables only itself — a broken
// block rule for bash makes Bash calls ask (a deny in -p) while other tools and other rules
// work — and rules in the person's ~/.claude and ~/.deepcode apply everywhere.
import { afterEach, describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { cliRig, type CliRig } from "../e2e/helpers.js";
import { chatBodies } from "../helpers/extension.js";

let rig: CliRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const call = (name: string, args: object) => ({ tool_calls: [{ name, arguments: args }] });
const results = (r: CliRig): string[] => chatBodies(r.sim.requests).at(-1)!.messages.filter((m) => m.role === "tool").map((m) => String(m.content));

const BLOCK_RM = `---
name: block-dangerous-rm
enabled: true
event: bash
pattern: rm\\s+-rf
action: block
---

⚠️ **Dangerous rm command detected!** Delete only what you created, by name.
`;

describe("hookify rules in the real CLI", () => {
  it("stops rm -rf with the rule's message, in a project nobody trusted, and the files stay", async () => {
    rig = await cliRig({ replies: [call("Bash", { command: "rm -rf build" }), { content: "stopped" }] }, { ".claude/hookify.dangerous-rm.local.md": BLOCK_RM, "build/out.js": "x" });
    const r = await rig.run(["-p", "clean up", "--allowedTools", "Bash(rm:*)"]);
    expect(r.code).toBe(0);
    expect(results(rig)[0]).toContain("hookify rule block-dangerous-rm blocks this call");
    expect(results(rig)[0]).toContain("**Dangerous rm command detected!** Delete only what you created, by name.");
    expect(existsSync(join(rig.env.root, "build", "out.js"))).toBe(true);
  });

  it("adds a warn rule's message after the call's result, and the call runs", async () => {
    const warn = "---\nname: warn-console-log\nevent: bash\npattern: echo\n---\nPrefer printf in scripts.\n";
    rig = await cliRig({ replies: [call("Bash", { command: "echo hello" }), { content: "ok" }] }, { ".deepcode/hookify.console.local.md": warn });
    const r = await rig.run(["-p", "say hello", "--allowedTools", "Bash(echo:*)"]);
    expect(r.code).toBe(0);
    expect(results(rig)[0]).toMatch(/hello[\s\S]*\[hookify warn-console-log\] Prefer printf in scripts\./);
    expect(r.stderr).toContain("hookify: rule warn-console-log warns about this Bash call: Prefer printf in scripts.");
  });

  it("reports a broken rule with its file and line; a broken block rule for bash makes Bash ask while Read and other rules still work", async () => {
    const broken = "---\nname: no-force\nevent: bash\npattern: push\\s+(--force\naction: block\n---\nNo force pushes.\n";
    rig = await cliRig(
      { replies: [call("Read", { file_path: "a.txt" }), call("Bash", { command: "echo hi" }), call("Write", { file_path: "b.txt", content: "ok" }), { content: "done" }] },
      { ".claude/hookify.no-force.local.md": broken, ".claude/hookify.no-secrets.local.md": "---\nname: no-secrets\nevent: file\npattern: ok\naction: block\n---\nNo.\n", "a.txt": "alpha" },
    );
    const r = await rig.run(["-p", "go", "--allowedTools", "Bash(echo:*),Write"]);
    expect(r.stderr).toContain(".claude/hookify.no-force.local.md:4: rule no-force is disabled: the pattern \"push\\\\s+(--force\" is not a valid regular expression");
    expect(r.stderr).toContain("until it is fixed, Bash calls ask");
    const [read, bash, write] = results(rig);
    expect(read).toContain("alpha");
    expect(bash).toMatch(/Permission denied for Bash: .*hookify rule no-force \(\.claude\/hookify\.no-force\.local\.md:4\) cannot be read/);
    expect(write).toContain("hookify rule no-secrets blocks this call");
  });

  it("applies rules from the person's ~/.claude and ~/.deepcode folders in every project", async () => {
    rig = await cliRig({ replies: [call("Bash", { command: "rm -rf dist" }), call("Bash", { command: "sudo ls" }), { content: "ok" }] });
    const { mkdirSync, writeFileSync } = await import("node:fs");
    mkdirSync(join(rig.env.home, ".claude"), { recursive: true });
    writeFileSync(join(rig.env.home, ".claude", "hookify.rm.local.md"), BLOCK_RM);
    writeFileSync(join(rig.env.home, "hookify.sudo.local.md"), "---\nname: no-sudo\nevent: bash\npattern: ^sudo\\b\naction: block\n---\nNo sudo.\n");
    await rig.run(["-p", "go", "--allowedTools", "Bash(rm:*),Bash(sudo:*)"]);
    const [rm, sudo] = results(rig);
    expect(rm).toContain("blocks this call");
    expect(sudo).toContain("hookify rule no-sudo blocks this call");
  });

  it("blocks a prompt that a prompt rule blocks, before it reaches the model", async () => {
    rig = await cliRig({ default: { content: "sent" } }, { ".claude/hookify.prod.local.md": "---\nname: no-prod\nevent: prompt\npattern: deploy to production\naction: block\n---\nUse the release checklist.\n" });
    const r = await rig.run(["-p", "deploy to production"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("prompt blocked: hookify rule no-prod: Use the release checklist.");
    expect(chatBodies(rig.sim.requests)).toHaveLength(0);
  });
});
