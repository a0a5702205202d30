// `deepcode rewind` is the checkpoints mod's subcommand (api.subcommand): it reads its own
// options and answers its own --help; and what it needs — a stored session opened outside a
// running one (SubcommandContext.resumeSession) — is there for every plugin's subcommand.
import { afterEach, describe, expect, it } from "vitest";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliRig, type CliRig } from "../e2e/helpers.js";
import { ALLOW, turnScript } from "./helpers.js";

let rig: CliRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const PLUGIN = `export default { id: "peek", register(api) {
  api.subcommand({ name: "peek", description: "open a session, rewind it, close it", async run(args, ctx) {
    const s = await ctx.resumeSession(args[0]);
    const r = await api.dispatch({ type: "context.rewind", sessionId: s.sessionId, turn: Number(args[1]) });
    ctx.out("opened " + s.sessionId + " rewound " + r.ok + " " + (r.ok ? r.rewound.join(",") : r.error) + "\\n");
    if (args[2] !== "leave-open") await s.close();
    return 0;
  } });
} };
`;

function sessionId(r: CliRig): string {
  const f = readdirSync(join(r.env.home, "sessions"), { recursive: true }).map(String).find((x) => x.endsWith(".jsonl"));
  return /([^/]+)\.jsonl$/.exec(f!)![1];
}

describe("deepcode rewind, the checkpoints mod's subcommand", () => {
  it("answers --help with its options wherever --help stands, and refuses an option or a word it does not take (exit 2)", async () => {
    rig = await cliRig({ default: { content: "x" } });
    for (const args of [["rewind", "--help"], ["rewind", "--session", "x", "-h"]]) {
      const h = await rig.run(args);
      expect(h.code).toBe(0);
      expect(h.stdout).toMatch(/^Usage: deepcode rewind/);
      for (const o of ["--session ID", "--turn N", "--files", "--conversation", "--force"]) expect(h.stdout).toContain(o);
    }
    const bad = await rig.run(["rewind", "--sesion", "x"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("unknown option --sesion (deepcode rewind --help lists the options)");
    const word = await rig.run(["rewind", "--session", "x", "--turn", "1", "extra"]);
    expect(word.code).toBe(2);
    expect(word.stderr).toContain("deepcode rewind takes no argument 'extra'");
    // It is deepcode's own: `deepcode run` lists only what third-party plugins add.
    expect((await rig.run(["run"])).stdout).not.toContain("rewind");
  });

  it("lets any plugin's subcommand open a stored session, rewind its conversation, and leave it resumable, closed or not", async () => {
    rig = await cliRig(turnScript(), { "shared.txt": "line0\n" });
    for (let k = 1; k <= 3; k++) expect((await rig.run(["-p", ...(k > 1 ? ["-c"] : []), `turn ${k}`, ...ALLOW])).code).toBe(0);
    const id = sessionId(rig);
    writeFileSync(join(rig.env.home, "peek.mjs"), PLUGIN);
    writeFileSync(join(rig.env.home, "settings.json"), JSON.stringify({ plugins: ["./peek.mjs"] }));
    const r = await rig.run(["run", "peek", id, "2", "leave-open"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`opened ${id} rewound true 3\n`);
    // The session it left open was closed for it: the next run takes its lock and goes on.
    const next = await rig.run(["-p", "-c", "turn 4", ...ALLOW]);
    expect(next.code).toBe(0);
    const missing = await rig.run(["run", "peek", "20260101-000000-abcdef", "1"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no session '20260101-000000-abcdef'/);
  });
});
