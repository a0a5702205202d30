// One account behind every cost figure (issue 30): a session with a subagent, an MCP server's
// sampling, a compaction and a resume. The ledger's lines for the session, `-p`'s
// total_cost_usd, the REPL's status line, /status and /cost, `deepcode sessions` and
// `deepcode stats --json` all say the same amount, to the last unit shown.
import { afterEach, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "../sim/server.mjs";
import { cliEnv, type CliEnv } from "../helpers/cli-env.js";
import { everythingStdio, mcpJson, deepcode } from "../mcp/helpers.js";
import { isSubagent, ledger } from "../agents/helpers.js";
import { TMUX_AVAILABLE, Tmux } from "../helpers/tmux.js";
import { BIN } from "../helpers/cli-env.js";
import { formatMoney } from "../../src/core/cost/format.js";

let sim: Simulator | undefined;
let env: CliEnv | undefined;
let term: Tmux | undefined;
afterEach(async () => {
  term?.kill();
  await sim?.close();
  env?.cleanup();
  term = sim = env = undefined;
});

type Json = { messages: Array<{ role: string; content?: unknown }>; tools?: unknown[] };

/** The main session: a Task, then the sampling tool, then an answer; the subagent and the
 *  sampling request answer at once; a compaction request gets a digest. */
function respond(json: Json) {
  const lastUser = [...json.messages].reverse().find((m) => m.role === "user");
  const text = typeof lastUser?.content === "string" ? lastUser.content : JSON.stringify(lastUser?.content ?? "");
  if (!json.tools?.length && /colour/.test(text)) return { content: "blue" }; // the sampling request
  if (/summar|compact/i.test(text)) return { content: "Digest: the session explored and sampled a colour." };
  if (isSubagent(json)) return { content: "explored: three modules" };
  const at = json.messages.lastIndexOf(lastUser!);
  const results = json.messages.slice(at + 1).filter((m) => m.role === "tool").length;
  if (text.startsWith("again")) return { content: "again done" };
  if (results === 0) return { tool_calls: [{ name: "Task", arguments: { subagent_type: "general-purpose", description: "explore", prompt: "explore the modules" } }] };
  if (results === 1) return { tool_calls: [{ name: "mcp__everything__trigger-sampling-request", arguments: { prompt: "Name a colour", maxTokens: 20 } }] };
  return { content: "all done" };
}

const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
const usd = (n: number): string => formatMoney(n, "USD");

describe.skipIf(!TMUX_AVAILABLE)("one account behind every cost figure", () => {
  it("agrees across -p JSON, the ledger, the status line, /status, /cost, deepcode sessions and deepcode stats", async () => {
    sim = await startSimulator({ script: { respond }, apiKey: "sk-test-cli" });
    env = cliEnv(sim.url, {
      ".mcp.json": mcpJson({ everything: everythingStdio() }),
      ".deepcode/settings.json": JSON.stringify({ estimate: "off", enableAllProjectMcpServers: true, mcpSampling: "allow", permissions: { allow: ["mcp__everything", "Task"] } }),
    });
    const r = await deepcode(env, ["-p", "--trust-project", "--output-format", "json", "go"], { timeoutMs: 120_000 });
    expect(r.code, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout) as { session_id: string; total_cost_usd: number };
    const lines = ledger(env).filter((l) => l.session === result.session_id);
    expect(lines.some((l) => l.agent !== undefined)).toBe(true); // the subagent's requests
    expect(lines.length).toBeGreaterThanOrEqual(5); // 3 main rounds + the subagent + the sampling
    expect(result.total_cost_usd).toBeCloseTo(sum(lines.map((l) => Number(l.usd))), 6);

    // The REPL, resumed: a compaction and a turn, then every figure it shows.
    term = new Tmux(`node ${BIN} --trust-project -r ${result.session_id}`, { cwd: env.root, env: env.env, width: 200 });
    await term.waitFor(/^›\s*$/m);
    term.type("/compact");
    term.press("Enter");
    await term.waitFor(/compacted|not compacted/);
    term.type("again");
    term.press("Enter");
    const afterTurn = await term.waitFor(/again done[\s\S]*\$[\d.]+ (this )?turn[^\n]*/);
    term.type("/status");
    term.press("Enter");
    await term.waitFor(/^cost\s+\$/m);
    term.type("/cost");
    term.press("Enter");
    const screen = await term.waitFor(/this session\s.*\$[\d.]+/);
    term.press("C-d");
    await term.waitFor(/\[exit 0\]/);

    const all = ledger(env).filter((l) => l.session === result.session_id);
    const total = usd(sum(all.map((l) => Number(l.usd))));
    const statusLine = afterTurn.split("\n").filter((l) => /\$[\d.]+ (this )?turn/.test(l)).pop()!;
    expect(statusLine).toContain(`${total} session`);
    expect(screen).toMatch(new RegExp(`^cost\\s+${total.replace("$", "\\$")} this session`, "m"));
    expect(screen.split("\n").find((l) => /^\s*this session\s/.test(l))).toContain(total);

    const listed = await deepcode(env, ["sessions"]);
    expect(listed.stdout.split("\n").find((l) => l.includes(result.session_id.slice(0, 15))) ?? listed.stdout).toContain(total);
    const stats = await deepcode(env, ["stats", "--json"]);
    // The ledger holds only this session (a fresh home), so stats' total is the session's.
    expect(usd(Number((JSON.parse(stats.stdout) as { months: { total: { usd: number } } }).months.total.usd))).toBe(total);
  }, 240_000);
});
