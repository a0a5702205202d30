// Issue 22: "`deepcode rewind` writes outside the project through a folder swapped for a
// symlink". The folder a turn wrote in is replaced by a link to a folder outside the project;
// the rewind must not restore (or remove) anything through it, and says why.
import { afterEach, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cliRig, type CliRig } from "../e2e/helpers.js";
import { ALLOW } from "../checkpoints/helpers.js";

let rig: CliRig | undefined;
let outside: string | undefined;
afterEach(async () => {
  await rig?.close();
  if (outside) rmSync(outside, { recursive: true, force: true });
  rig = undefined;
  outside = undefined;
});

const write = (file_path: string, content: string) => ({ tool_calls: [{ name: "Write", arguments: { file_path, content } }] });

describe("deepcode rewind and a folder swapped for a symlink", () => {
  it("restores nothing through a link leading out of the project, and says so", async () => {
    rig = await cliRig({ replies: [write("sub/a.txt", "v1\n"), { content: "done 1" }, write("sub/a.txt", "v2\n"), { content: "done 2" }, write("sub/b.txt", "new\n"), { content: "done 3" }] }, {});
    for (let k = 1; k <= 3; k++) expect((await rig.run(["-p", ...(k > 1 ? ["-c"] : []), ...ALLOW, `turn ${k}`])).code).toBe(0);
    const sessions = readdirSync(join(rig.env.home, "sessions"), { recursive: true }).map(String).filter((f) => f.endsWith(".jsonl"));
    const id = /([^/]+)\.jsonl$/.exec(sessions[0])![1];
    // The swap: sub/ moves away, and a link to a folder outside takes its name.
    outside = mkdtempSync(join(tmpdir(), "deepcode-outside-"));
    // The same bytes as after turn 3, so nothing looks changed on disk: a.txt would be put back
    // to v1 and b.txt (created in turn 3) removed — outside the project.
    writeFileSync(join(outside, "a.txt"), "v2\n");
    writeFileSync(join(outside, "b.txt"), "new\n");
    renameSync(join(rig.env.root, "sub"), join(rig.env.root, "sub-moved"));
    symlinkSync(outside, join(rig.env.root, "sub"));
    const r = await rig.run(["rewind", "--session", id, "--turn", "1"]);
    expect(readFileSync(join(outside, "a.txt"), "utf8")).toBe("v2\n");
    expect(readFileSync(join(outside, "b.txt"), "utf8")).toBe("new\n");
    expect(r.stdout + r.stderr).toMatch(/sub is a symlink now \(to .*\), leading out of the project/);
  });

  it("still restores through a link that stays in the project", async () => {
    rig = await cliRig({ replies: [write("sub/a.txt", "v1\n"), { content: "done 1" }, write("sub/a.txt", "v2\n"), { content: "done 2" }] }, {});
    for (let k = 1; k <= 2; k++) expect((await rig.run(["-p", ...(k > 1 ? ["-c"] : []), ...ALLOW, `turn ${k}`])).code).toBe(0);
    const sessions = readdirSync(join(rig.env.home, "sessions"), { recursive: true }).map(String).filter((f) => f.endsWith(".jsonl"));
    const id = /([^/]+)\.jsonl$/.exec(sessions[0])![1];
    mkdirSync(join(rig.env.root, "vendor"));
    renameSync(join(rig.env.root, "sub"), join(rig.env.root, "vendor", "sub"));
    symlinkSync(join(rig.env.root, "vendor", "sub"), join(rig.env.root, "sub"));
    const r = await rig.run(["rewind", "--session", id, "--turn", "1"]);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(rig.env.root, "vendor", "sub", "a.txt"), "utf8")).toBe("v1\n");
  });
});
