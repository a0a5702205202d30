// A write killed between its temp file and the rename leaves the temp file (up to the size of
// the file being written) in the project; the next deepcode removes it. The kill is real: a
// process writing through fs.write's core with the journal deepcode uses is killed with SIGKILL
// while its temp file exists; then the real CLI starts and the temp file must be gone.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "../sim/server.mjs";
import { cliEnv, type CliEnv } from "../helpers/cli-env.js";
import { runBounded } from "./bounded.js";

const EFFECTS = fileURLToPath(new URL("../../dist/src/core/effects.js", import.meta.url));

let sim: Simulator | undefined;
let env: CliEnv | undefined;
afterEach(async () => {
  await sim?.close();
  env?.cleanup();
  sim = undefined;
  env = undefined;
});

const temps = (dir: string): string[] => readdirSync(dir).filter((n) => n.endsWith(".tmp"));

/** Starts a big atomic write in `dir` and kills the writer with SIGKILL while its temp file is there. */
async function killMidWrite(dir: string, home: string): Promise<boolean> {
  const script = `
    const { Chain } = await import(${JSON.stringify(EFFECTS.replace(/effects\.js$/, "chain.js"))});
    const { registerEffects, writeFileAtomic } = await import(${JSON.stringify(EFFECTS)});
    registerEffects(new Chain(), { writeJournal: ${JSON.stringify(join(home, "writes"))} });
    for (;;) await writeFileAtomic({ path: ${JSON.stringify(join(dir, "big.bin"))}, data: Buffer.alloc(48 * 1024 * 1024, 97) });`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: "ignore" });
  const end = Date.now() + 120_000; // a limit for a writer that never writes, not a speed
  while (Date.now() < end && child.exitCode === null) {
    if (temps(dir).length > 0) {
      child.kill("SIGKILL");
      await new Promise((r) => child.once("close", r));
      return temps(dir).length > 0; // the rename may have won the race: then try again
    }
    await new Promise((r) => setImmediate(r));
  }
  child.kill("SIGKILL");
  return false;
}

describe.skipIf(process.platform === "win32")("temp files of killed writes", () => {
  it("are removed by the next deepcode", async () => {
    sim = await startSimulator({ script: { replies: [{ content: "ok" }] }, apiKey: "sk-test-cli" });
    env = cliEnv(sim.url);
    const dir = join(env.root, "out");
    mkdirSync(dir);
    let killed = false;
    for (let i = 0; i < 5 && !killed; i++) killed = await killMidWrite(dir, env.home);
    expect(killed).toBe(true);
    const left = temps(dir);
    expect(left).toHaveLength(1);
    const r = await runBounded(["-p", "hi"], { cwd: env.root, env: env.env });
    expect(r.code).toBe(0);
    expect(existsSync(join(dir, left[0]))).toBe(false);
    expect(readdirSync(join(env.home, "writes"))).toEqual([]);
  });
});
