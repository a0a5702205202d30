// A background job runs in the same sandbox as a foreground command (the job's process.run
// passes the sandbox mod's hook): where bubblewrap works, a write outside the workspace that the
// gate could not see (a script the rules allow) fails with a read-only file system, and the file
// never appears; with the sandbox off the same job writes it (so the test can fail). Skipped,
// saying why, where bubblewrap cannot run (CI installs it).
import { afterEach, describe, expect, it } from "vitest";
import { chmodSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { cliRig, type CliRig } from "../e2e/helpers.js";
import { chatBodies } from "../helpers/extension.js";
import { sandboxStatus } from "../../mods/sandbox/index.js";
import { toolResults, type Chat } from "./helpers.js";

let rig: CliRig | undefined;
let outside: string | undefined;
afterEach(async () => {
  await rig?.close();
  if (outside) rmSync(outside, { recursive: true, force: true });
  rig = undefined;
  outside = undefined;
});

/** A job running the project's script, which writes `target`; then its output, once it ended. */
async function runWriter(target: string, sandbox: boolean): Promise<string> {
  rig = await cliRig({
    respond: async (json: Chat) => {
      const n = toolResults(json).length;
      if (n === 0) return { tool_calls: [{ name: "Bash", arguments: { command: `./write.sh ${target}; sleep 0.5`, run_in_background: true } }] };
      if (n === 1) return { keepAliveMs: 1500, tool_calls: [{ name: "BashOutput", arguments: { bash_id: "1" } }] };
      return { content: "done" };
    },
  }, {
    "write.sh": "#!/bin/sh\necho written > \"$1\" && echo wrote it\n",
    ".deepcode/settings.json": JSON.stringify({ permissions: { allow: ["Bash(./write.sh:*)", "Bash(sleep:*)"] }, ...(sandbox ? {} : { sandbox: { enabled: false } }) }),
  });
  chmodSync(join(rig.env.root, "write.sh"), 0o755);
  const r = await rig.run(["-p", "write it", "--trust-project", "--output-format", "json"]);
  expect(r.code).toBe(0);
  expect(JSON.parse(r.stdout).permission_denials).toEqual([]);
  return toolResults(chatBodies(rig.sim.requests).pop() as Chat)[1];
}

describe("a background job in the sandbox", () => {
  it("cannot write outside the workspace, while the same job without the sandbox can", async (ctx) => {
    if (!sandboxStatus().active) ctx.skip(); // bubblewrap cannot run here
    // Not under /tmp: the sandbox's /tmp is a private one, which would hide the write anyway.
    outside = mkdtempSync("/var/tmp/deepcode-jobs-outside-");
    const target = join(outside, "escaped.txt");
    const contained = await runWriter(target, true);
    // /var/tmp is the sandbox's own empty folder: the host's folder is not there at all.
    expect(contained).toMatch(/Read-only file system|No such file or directory|Directory nonexistent/);
    expect(existsSync(target)).toBe(false);
    await rig?.close();
    rig = undefined;
    const free = await runWriter(target, false);
    expect(free).toMatch(/^wrote it\n/);
    expect(existsSync(target)).toBe(true);
  });
});
