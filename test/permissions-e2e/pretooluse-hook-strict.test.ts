// PreToolUse hooks read strictly, in a real `deepcode -p` (hooks from a --settings file): an
// answer deepcode cannot read exactly — a JSON array holding a deny, a log line before the deny
// JSON — denies the call instead of letting it run; empty output stays "no opinion". A hook that
// times out ends with its whole process tree, grandchildren that left its process group
// (`setsid`, a double fork) included.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Simulator } from "../sim/server.mjs";
import { CLI_HOOK_TIMEOUT_MS, bashCall, makeBox, runCli, startSim, toolResults, writeJson, type Box, type CliRun } from "./helpers.js";

const DENY = JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "policy says no" } });
const HAS_SETSID = ["/usr/bin/setsid", "/bin/setsid"].some((p) => existsSync(p));

let box: Box;
let sim: Simulator;
let run: CliRun;
let pidFile: string;

/** Alive and not a zombie (a killed orphan may wait for a reaper that never comes in a container). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}
const pids = (): number[] => (existsSync(pidFile) ? readFileSync(pidFile, "utf8").trim().split(/\s+/).filter(Boolean).map(Number) : []);

beforeAll(async () => {
  box = makeBox();
  pidFile = join(box.base, "grandchildren.pids");
  const flag = join(box.base, "flag-settings.json");
  const hook = (match: string, command: string, timeout = 30) => ({ matcher: "Bash", hooks: [{ type: "command", command: `case "$(cat)" in *${match}*) ${command} ;; esac`, timeout }] });
  writeJson(flag, {
    sandbox: { enabled: false },
    permissions: { allow: ["Bash(touch:*)"] },
    hooks: {
      PreToolUse: [
        hook("array.txt", `echo '[${DENY}]'`),
        hook("logline.txt", `echo 'checking the command…'; echo '${DENY}'`),
        hook("text.txt", "echo all good"),
        hook("quiet.txt", "true"),
        hook("slow.txt", `setsid sleep 1000 & echo $! >> '${pidFile}'; ( setsid sh -c 'sleep 1001 & echo $! >> "$0"' '${pidFile}' & ); sleep 60`, 1),
      ],
    },
  });
  sim = await startSim({
    replies: [
      { tool_calls: ["array.txt", "logline.txt", "text.txt", "quiet.txt", ...(HAS_SETSID ? ["slow.txt"] : [])].map((f) => bashCall(`call_${f}`, `touch ${f}`)) },
      { content: "done" },
    ],
  });
  run = await runCli({ box, sim, prompt: "make files", args: ["--settings", flag] });
}, CLI_HOOK_TIMEOUT_MS);

afterAll(async () => {
  for (const p of pids()) if (alive(p)) process.kill(p, "SIGKILL"); // what a failed run left behind
  await sim?.close();
  box?.cleanup();
});

describe("a PreToolUse answer deepcode cannot read exactly denies the call", () => {
  for (const [file, what] of [
    ["array.txt", "a JSON array holding a deny"],
    ["logline.txt", "a log line followed by the deny JSON"],
    ["text.txt", "plain text"],
  ] as const) {
    it(`denies when the hook prints ${what}, naming the hook and what it printed`, () => {
      expect(run.result?.stop_reason, run.stderr).toBe("completed");
      expect(existsSync(join(box.root, file))).toBe(false);
      expect(toolResults(sim).get(`call_${file}`)).toMatch(/^Permission denied for Bash: the PreToolUse hook `case .*` printed ".*", which is not one JSON object/);
    });
  }

  it("reads an exit 0 with nothing printed as no opinion: the allow rule decides", () => {
    expect(existsSync(join(box.root, "quiet.txt"))).toBe(true);
  });
});

describe.skipIf(!HAS_SETSID)("a PreToolUse hook that times out (needs setsid)", () => {
  it("is denied, and its grandchildren that left its process group end with it", () => {
    expect(toolResults(sim).get("call_slow.txt")).toMatch(/^Permission denied for Bash: the PreToolUse hook `case .*` timed out after 1 s/);
    expect(existsSync(join(box.root, "slow.txt"))).toBe(false);
    expect(pids()).toHaveLength(2);
    expect(pids().filter(alive)).toEqual([]);
  });
});
