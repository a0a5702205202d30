import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { cliRig, type CliRig } from "./helpers.js";

let rig: CliRig;
beforeAll(async () => {
  rig = await cliRig({ default: { content: "ok" } });
});
afterAll(() => rig.close());

const SUBCOMMANDS = ["setup", "doctor", "permissions", "sessions", "stats"];

describe("the command line's options and messages", () => {
  it("answers an unknown option with one line of its own, naming the closest known option", async () => {
    const r = await rig.run(["-p", "x", "--alowedTools", "Read"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("deepcode: unknown option --alowedTools; did you mean --allowedTools? (deepcode --help lists the options)\n");
    const typo = await rig.run(["--verbos"]);
    expect(typo.stderr).toBe("deepcode: unknown option --verbose".replace("--verbose", "--verbos") + "; did you mean --verbose? (deepcode --help lists the options)\n");
    const far = await rig.run(["--frobnicate"]);
    expect(far.stderr).toBe("deepcode: unknown option --frobnicate (deepcode --help lists the options)\n");
    expect(far.stderr).not.toMatch(/positional argument|To specify/);
  });

  it("answers --help in every subcommand without running it, and a subcommand's unknown option with its closest one", async () => {
    for (const c of SUBCOMMANDS) {
      const r = await rig.run([c, "--help"]);
      expect(r.code, c).toBe(0);
      expect(r.stdout, c).toMatch(new RegExp(`^Usage: deepcode ${c}`));
      expect(r.stdout, c).toContain("--help");
    }
    expect((await rig.run(["setup", "--help"])).stdout).toContain("--force");
    const bad = await rig.run(["stats", "--jsn"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe("deepcode: unknown option --jsn; did you mean --json? (deepcode stats --help lists the options)\n");
  });

  it("lists every subcommand and its options in the main --help", async () => {
    const r = await rig.run(["--help"]);
    expect(r.code).toBe(0);
    for (const c of SUBCOMMANDS) expect(r.stdout).toMatch(new RegExp(`^  deepcode ${c}\\b`, "m"));
    for (const o of ["--json", "--estimates", "--force", "--allowedTools", "--disallowedTools", "--permission-mode", "--verbose", "--input-format", "--include-partial-messages"]) expect(r.stdout).toContain(o);
    expect(r.stdout).toContain("error_max_turns");
  });

  it("rejects an argument a subcommand does not take", async () => {
    const r = await rig.run(["sessions", "extra"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("deepcode: deepcode sessions takes no argument 'extra' (deepcode sessions --help lists what it takes)\n");
  });

  it("makes -r without an id in -p a usage error that says what to do, and a missing --settings file exit 2", async () => {
    const r = await rig.run(["-p", "hi", "-r"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^deepcode: -r needs a session id with -p .*pass deepcode -p -r <id>, or -c for the latest session/);
    const s = await rig.run(["-p", "hi", "--settings", "/missing.json"]);
    expect(s.code).toBe(2);
    expect(s.stderr).toBe("deepcode: --settings /missing.json: no such file\n");
    expect(rig.sim.requests).toHaveLength(0);
  });

  it("refuses the permission modes that would bypass the rules, and names the modes it has", async () => {
    for (const mode of ["bypassPermissions", "dontAsk"]) {
      const r = await rig.run(["-p", "hi", "--permission-mode", mode]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`--permission-mode ${mode} is refused: deepcode has no bypass of its permission rules`);
    }
    const odd = await rig.run(["-p", "hi", "--permission-mode", "yolo"]);
    expect(odd.code).toBe(2);
    expect(odd.stderr).toBe("deepcode: --permission-mode must be default, acceptEdits or plan, not 'yolo'\n");
    expect(rig.sim.requests).toHaveLength(0);
  });

  it("shows --allowedTools and --disallowedTools rules in `deepcode permissions`, with the flag as their source", async () => {
    const r = await rig.run(["--allowedTools", "Read,Bash(npm test:*)", "--disallowed-tools", "Bash(git push:*)", "--permission-mode", "acceptEdits", "permissions"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^allow\s+Read\s+flag\s+--allowedTools$/m);
    expect(r.stdout).toMatch(/^allow\s+Bash\(npm test:\*\)\s+flag\s+--allowedTools$/m);
    expect(r.stdout).toMatch(/^deny\s+Bash\(git push:\*\)\s+flag\s+--disallowedTools$/m);
    expect(r.stdout).toMatch(/^allow\s+Edit\(\/\*\*\)\s+flag\s+--permission-mode acceptEdits$/m);
  });

  it("lists in --events what a running session implements: no NOT IMPLEMENTED for the engine's events", async () => {
    const r = await rig.run(["--events"]);
    expect(r.code).toBe(0);
    for (const e of ["session.start", "context.build", "context.system", "context.tail", "model.usage", "tool.call", "turn.start"]) {
      expect(r.stdout).toMatch(new RegExp(`^${e.replace(".", "\\.")}\\s+no\\s+engine\\s`, "m"));
    }
    expect(r.stdout).toMatch(/^model\.request\s+no\s+assembly\s/m);
    for (const e of ["tool.effects", "ui.render"]) expect(r.stdout).toMatch(new RegExp(`^${e.replace(".", "\\.")}\\s+no\\s+assembly\\s`, "m"));
    expect(r.stdout).toMatch(/^context\.rewind\s+no\s+engine\s/m);
    // Every declared event has an answer.
    expect(r.stdout.split("\n").filter((l) => l.includes("NOT IMPLEMENTED"))).toEqual([]);
  });

  it("prints with --events the chain of the front end the command line names: the REPL, -p, or an editor's sessions", async () => {
    const hooks = (out: string, event: string): string => new RegExp(`^${event.replace(".", "\\.")}\\s.*\\s{2}(\\S.*)$`, "m").exec(out)?.[1] ?? "";
    const repl = (await rig.run(["--events"])).stdout;
    const print = (await rig.run(["-p", "--events"])).stdout;
    const acp = (await rig.run(["--events", "acp"])).stdout;
    expect([repl, print, acp].map((o) => /^front end: (\S+)/m.exec(o)?.[1])).toEqual(["repl", "print", "acp"]);
    expect(hooks(repl, "person.ask")).toBe("builtin:repl");
    expect(hooks(print, "person.ask")).toBe("prepend:non-interactive");
    expect(hooks(print, "model.request")).toBe("prepend:print-timing");
    expect(hooks(acp, "model.request")).toBe("-");
  });

  it("stores the simulator's key with deepcode setup (a warning, not a refusal), and silently with --force", async () => {
    const r = await rig.run(["setup"], { stdin: "sk-test-cli\n", env: { DEEPSEEK_API_KEY: undefined } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Stored the key in ${rig.env.home}/credentials (mode 0600).`);
    expect(r.stdout).toContain("Warning: this key is shorter than DeepSeek's");
    const forced = await rig.run(["setup", "--force"], { stdin: "sk-test-cli\n", env: { DEEPSEEK_API_KEY: undefined } });
    expect(forced.code).toBe(0);
    expect(forced.stdout).not.toContain("Warning");
  });

  it("agrees on the minimum Node.js version in package.json, README and doctor", async () => {
    const pkg = JSON.parse(readFileSync(fileURLToPath(new URL("../../package.json", import.meta.url)), "utf8")) as { engines: { node: string } };
    const min = /^>=(\d+\.\d+)$/.exec(pkg.engines.node)?.[1];
    expect(min).toBeDefined();
    const readme = readFileSync(fileURLToPath(new URL("../../README.md", import.meta.url)), "utf8");
    expect(readme).toContain(`Node.js ≥ ${min}`);
    const doctor = await rig.run(["doctor"]);
    expect(doctor.stdout).toMatch(new RegExp(`^✓ Node\\.js: [\\d.]+ \\(needs ≥ ${min!.replace(".", "\\.")}\\)$`, "m"));
  });
});
