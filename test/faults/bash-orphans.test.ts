// A Bash command never outlives deepcode: not after Ctrl-C (SIGINT), SIGTERM, nor kill -9 of
// deepcode itself (the exit hook cannot run then; the watchdog kills the command's process
// group). Judged by effect: the command's processes, foreground and background, are gone.
import { execFileSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "../sim/server.mjs";
import { cliEnv, type CliEnv } from "../helpers/cli-env.js";
import { runBounded } from "./bounded.js";

let sim: Simulator | undefined;
let env: CliEnv | undefined;
const started: number[] = [];
afterEach(async () => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, "SIGKILL"); // a failed test must not leave sleeps behind either
    } catch {
      // ESRCH: already gone, as it should be
    }
  }
  await sim?.close();
  env?.cleanup();
  sim = undefined;
  env = undefined;
});

/** Live (not zombie) processes whose command line is exactly `sleep <n>`: seen from here also
 *  when they run in a sandbox's own pid namespace. */
function sleepers(n: number): number[] {
  const out = execFileSync("ps", ["-A", "-o", "pid=,stat=,args="], { encoding: "utf8" });
  return out
    .split("\n")
    .map((l) => /^\s*(\d+)\s+(\S+)\s+(.*)$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null && !m[2].startsWith("Z") && m[3].trim() === `sleep ${n}`)
    .map((m) => Number(m[1]));
}

async function until(cond: () => boolean, limitMs: number): Promise<boolean> {
  const end = Date.now() + limitMs;
  while (Date.now() < end) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return cond();
}

describe.skipIf(process.platform === "win32")("a running Bash command when deepcode ends", () => {
  for (const sandbox of [false, true]) {
    for (const sig of ["SIGINT", "SIGTERM", "SIGKILL"] as const) {
      it(`is gone, background child included, after ${sig} to deepcode (sandbox ${sandbox ? "on where available" : "off"})`, async () => {
        const n = 900_000 + Math.floor(Math.random() * 99_999); // sleep's argument marks this test's processes
        const command = `sleep ${n} & sleep ${n} & echo up > started; wait`;
        sim = await startSimulator({ script: { replies: [{ tool_calls: [{ name: "Bash", arguments: { command } }] }, { content: "done" }] }, apiKey: "sk-test-cli" });
        env = cliEnv(sim.url);
        // The user's settings: a project that is not trusted may not switch the sandbox off.
        writeFileSync(join(env.home, "settings.json"), JSON.stringify({ sandbox: { enabled: sandbox } }));
        const root = env.root;
        let seen: number[] = [];
        const run = runBounded(["-p", "run it", "--allowedTools", "Bash"], {
          cwd: root,
          env: env.env,
          onStart: (child) => {
            void until(() => existsSync(join(root, "started")) && sleepers(n).length === 2, 120_000).then((ok) => {
              seen = sleepers(n);
              started.push(...seen);
              if (ok) child.kill(sig);
            });
          },
        });
        const r = await run;
        expect(r.hung).toBe(false);
        expect(r.stderr).not.toMatch(/not trusted/);
        expect(seen).toHaveLength(2);
        expect(await until(() => sleepers(n).length === 0, 60_000)).toBe(true);
      });
    }
  }
});
