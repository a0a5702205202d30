// MCP and the prompt cache: a coding session with an MCP server that connects only after the
// session's first request (it answers `initialize` late, and the first request does not wait
// for it), whose tool the model then calls through the UseTool proxy. Its tools must reach the
// model as a tail note, never by changing the prefix: deepcode ÷ optimum must stay at 100%,
// with no unexpected miss. Measured like the cache section (bench/cache.mjs: the same optimum,
// the same naive agent), against a real stdio server process (test/mcp/fixtures).
import { fileURLToPath } from "node:url";
import { fast, fmt, table } from "./lib.mjs";
import { measure } from "./cache.mjs";
import { codingTurns } from "./sessions.mjs";

const SERVER = fileURLToPath(new URL("../test/mcp/fixtures/scripted-server.mjs", import.meta.url));

/** The session: coding turns, with one turn in the middle that uses the late server's tool. */
export function lateServerSession({ fast: short = fast } = {}) {
  const turns = codingTurns(short ? 6 : 20);
  const at = Math.floor(turns.length / 2);
  turns.splice(at, 0, {
    prompt: "Ask the late MCP server to echo 'hello from the cache benchmark'.",
    steps: [{ reasoning: "The late server's echo tool was announced; it is reached through UseTool.", tool_calls: [{ name: "UseTool", arguments: { name: "mcp__late__echo", input: { text: "hello from the cache benchmark" } } }] }],
    final: { reasoning: "The server answered.", content: "The late server echoed the text." },
  });
  return {
    id: "mcp-late",
    label: `an MCP server connects after the first request (${turns.length} turns)`,
    turns,
    mcp: (root) => ({
      servers: [{ name: "late", scope: "user", source: "bench", transport: "stdio", command: process.execPath, args: [SERVER], env: { PATH: process.env.PATH ?? "", DELAY_MS: "400" }, raw: {}, start: true, approval: "none" }],
      firstRequestWaitMs: 0,
      roots: [root],
    }),
    beforeTurn: async (i) => {
      if (i === 1) await new Promise((r) => setTimeout(r, 600)); // by the second turn it has connected
    },
  };
}

export async function run() {
  const r = await measure(lateServerSession({ fast }));
  // The coding session's own failing Reads are part of its script; only MCP calls count here.
  const mcpErrors = r.toolErrors.filter((e) => /UseTool|mcp__/.test(e));
  table(`mcp: the prompt cache with a late MCP server${fast ? " (fast)" : ""}`, [
    ["session", "requests", "deepcode", "optimum", "deepcode ÷ optimum", "goal 100%", "naive", "unexpected misses", "MCP call errors"],
    [r.label, String(r.requests), fmt.pct(r.hitRate), fmt.pct(r.optimumRate), fmt.pct(r.ofOptimum), r.ofOptimum >= 0.9999 ? "met" : "NOT MET", fmt.pct(r.naiveRate), String(r.unexpected.length), String(mcpErrors.length)],
  ]);
  console.log("The server answers initialize 400 ms late and the first request does not wait (firstRequestWaitMs 0); its tool is announced in a tail note and called through UseTool.");
  for (const e of mcpErrors) console.log(`  MCP call error: ${e}`);
}
