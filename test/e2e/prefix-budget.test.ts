// The cached prefix's size (issue 41): the system prompt and tool definitions a fresh `-p`
// session sends first, counted with the DeepSeek V3 tokenizer the simulator bills with. Every
// request of every session carries it, and a short resumed session pays it cold; the ceiling is
// pi's, the smallest peer of the peers benchmark (1,388 tokens on its short session, 134 of them
// that project's AGENTS.md under pi's heading). Run `npx tsc -p tsconfig.json` first: this
// starts dist/.
import { afterEach, describe, expect, it } from "vitest";
import { platform } from "node:os";
import { startSimulator, type Simulator } from "../sim/server.mjs";
import { countTokens } from "../sim/tokens.mjs";
import { cliEnv, type CliEnv } from "../helpers/cli-env.js";
import { chatBodies } from "../helpers/extension.js";
import { runBin } from "./helpers.js";

/** pi 0.73.1's prefix without its project context (596 system + 658 tools): deepcode's may not be larger. */
const SMALLEST_PEER_PREFIX = 1_254;
/** The bench's project root has this length (`/tmp/dcpeers-XXXXXX/repo`); every root is counted as it. */
const BENCH_ROOT = "/tmp/dcpeers-abcdef/repo";

let sim: Simulator | undefined;
let env: CliEnv | undefined;
afterEach(async () => {
  await sim?.close();
  env?.cleanup();
  sim = env = undefined;
});

async function firstRequest(): Promise<{ system: string; tools: unknown[] }> {
  sim = await startSimulator({ script: { replies: [{ content: "Done." }] }, apiKey: "sk-test-cli" });
  env = cliEnv(sim.url, { "README.md": "# demo\n" });
  const r = await runBin(["-p", "hello", "--output-format", "json"], { cwd: env.root, env: env.env });
  expect(r.code, r.stderr).toBe(0);
  const body = chatBodies(sim.requests)[0] as { messages: Array<{ role: string; content: string }>; tools: unknown[] };
  // The machine's root and kernel release differ from run to run: count them as the bench's.
  const system = body.messages
    .filter((m) => m.role === "system")
    .map((m) => `${m.content}\n\n`)
    .join("")
    .replaceAll(env.root, BENCH_ROOT)
    .replace(`platform ${platform()}`, "platform linux");
  return { system, tools: body.tools };
}

describe("the prefix every request carries", () => {
  it("is no larger than the smallest peer's, with every built-in capability still reachable", async () => {
    const { system, tools } = await firstRequest();
    const total = countTokens(system) + countTokens(JSON.stringify(tools));
    expect(total, `system ${countTokens(system)} + tools ${countTokens(JSON.stringify(tools))}:\n${system}`).toBeLessThanOrEqual(SMALLEST_PEER_PREFIX);
    const names = tools.map((t) => (t as { function: { name: string } }).function.name);
    expect(names).toEqual(expect.arrayContaining(["Read", "Write", "Edit", "Bash", "Glob", "Grep", "UseTool"]));
    // The tools kept out of the definitions are named in the system prompt, with how to call them.
    for (const name of ["Task", "Remember", "TodoWrite", "WebFetch"]) expect(system).toContain(name);
    expect(system).toContain("explore:");
  });
});
