import { afterEach, describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { call, cliRig, type CliRig } from "./helpers.js";

let rig: CliRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const toolMessages = (r: CliRig): string[] =>
  r.sim.requests.flatMap((q) => ((q.json as { messages?: Array<{ role: string; content: string }> } | undefined)?.messages ?? []).filter((m) => m.role === "tool").map((m) => m.content));

describe("permissions in deepcode -p", () => {
  it("says on stderr why a call was denied and the flag or rule that would allow it", async () => {
    rig = await cliRig({ replies: [call("Bash", { command: "touch made" }), { content: "could not" }] });
    const r = await rig.run(["-p", "make a file"]);
    expect(r.code).toBe(0);
    // The project is not trusted: its own settings would not apply, so the user's file is named.
    expect(r.stderr).toContain(`✗ Bash touch made: denied — deepcode runs non-interactively (-p), so nobody can approve Bash; to allow it, pass --allowedTools 'Bash(touch:*)' or add "Bash(touch:*)" to permissions.allow in `);
    expect(r.stderr).toMatch(/permissions\.allow in (~\/|\/)\S*settings\.json \(this project is not trusted, so its own settings would not apply\)\. It asks because/);
    expect(r.stderr).not.toContain(".deepcode/settings.json");
    expect(existsSync(join(rig.env.root, "made"))).toBe(false);
  });

  it("names the project's .deepcode/settings.json when the project is trusted", async () => {
    rig = await cliRig({ replies: [call("Bash", { command: "touch made" }), { content: "could not" }] });
    const r = await rig.run(["-p", "make a file", "--trust-project"]);
    expect(r.stderr).toContain(`add "Bash(touch:*)" to permissions.allow in .deepcode/settings.json.`);
    expect(r.stderr).not.toContain("not trusted");
  });

  it("gives the same advice once: a second call denied for the same rule points back to it", async () => {
    rig = await cliRig({ replies: [call("Bash", { command: "touch one" }), call("Bash", { command: "touch two" }), call("Bash", { command: "rm -f three" }), { content: "could not" }] });
    const r = await rig.run(["-p", "make files"]);
    const lines = r.stderr.split("\n").filter((l) => l.startsWith("✗ Bash"));
    expect(lines).toHaveLength(3);
    expect(r.stderr.match(/--allowedTools 'Bash\(touch:\*\)' or add/g)).toHaveLength(1);
    expect(lines[1]).toBe("✗ Bash touch two: denied — not approved in -p (allowed by 'Bash(touch:*)', as said above). It asks because 'touch two' needs approval: no rule allows 'touch'.");
    expect(lines[2]).toContain("--allowedTools 'Bash(rm:*)' or add"); // another rule: said in full
  });

  it("runs what --allowedTools allows for this run, with the rule the denial named", async () => {
    rig = await cliRig({ replies: [call("Bash", { command: "touch made" }), { content: "made it" }] });
    const r = await rig.run(["-p", "make a file", "--allowedTools", "Bash(touch:*)"]);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain("denied");
    expect(existsSync(join(rig.env.root, "made"))).toBe(true);
  });

  it("denies what --disallowedTools names, even a read that is allowed by default", async () => {
    rig = await cliRig({ replies: [call("Read", { file_path: "a.txt" }), { content: "no read" }] }, { "a.txt": "secret plan" });
    const r = await rig.run(["-p", "read a.txt", "--disallowedTools", "Read", "--output-format", "json"]);
    const o = JSON.parse(r.stdout) as { permission_denials: Array<{ tool_name: string; reason: string }> };
    expect(o.permission_denials.map((d) => d.tool_name)).toEqual(["Read"]);
    expect(toolMessages(rig).join("\n")).not.toContain("secret plan");
  });

  it("with --permission-mode acceptEdits edits inside the project without asking, and still refuses outside it and the protected paths", async () => {
    rig = await cliRig(
      {
        replies: [
          call("Read", { file_path: "a.txt" }),
          call("Edit", { file_path: "a.txt", old_string: "one", new_string: "uno" }),
          call("Write", { file_path: "/tmp/deepcode-accept-edits-outside.txt", content: "x" }),
          call("Read", { file_path: ".deepcode/settings.json" }), // read first: a Write over an unread file fails unasked
          call("Write", { file_path: ".deepcode/settings.json", content: "{}" }),
          { content: "done" },
        ],
      },
      { "a.txt": "one\n", ".deepcode/settings.json": JSON.stringify({ estimate: "off" }) },
    );
    const r = await rig.run(["-p", "edit", "--permission-mode", "acceptEdits", "--output-format", "json"]);
    expect(r.code).toBe(0);
    expect(readFileSync(join(rig.env.root, "a.txt"), "utf8")).toBe("uno\n");
    expect(existsSync("/tmp/deepcode-accept-edits-outside.txt")).toBe(false);
    expect(readFileSync(join(rig.env.root, ".deepcode/settings.json"), "utf8")).toBe(JSON.stringify({ estimate: "off" }));
    const o = JSON.parse(r.stdout) as { permission_denials: Array<{ tool_name: string; tool_input: { file_path: string } }> };
    expect(o.permission_denials.map((d) => d.tool_input.file_path)).toEqual(["/tmp/deepcode-accept-edits-outside.txt", ".deepcode/settings.json"]);
  });
});
