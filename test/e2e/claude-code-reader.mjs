#!/usr/bin/env node
// A script written for Claude Code's headless mode, as a CI job or an SDK wrapper would be: it
// runs the agent with `-p`, reads `--output-format json` and `--output-format stream-json`, and
// resumes by session id. It reads only fields Claude Code documents for those outputs (the
// result message, system/init, assistant and user messages with their content blocks) and
// knows nothing of deepcode. test/e2e/claude-code-script.test.ts points AGENT_BIN at deepcode.
//
//   AGENT_BIN="node bin/deepcode.js" node claude-code-reader.mjs "first prompt" "follow-up"
//
// It prints one JSON summary on stdout and exits 1 if the agent reported an error.
import { spawn } from "node:child_process";

const [bin, ...binArgs] = (process.env.AGENT_BIN ?? "claude").split(" ");
const [first, followUp] = process.argv.slice(2);

function agent(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, [...binArgs, ...args], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out }));
  });
}

// 1. One prompt, JSON output: the result object.
const one = await agent(["-p", first, "--output-format", "json"]);
const result = JSON.parse(one.out);
if (result.type !== "result") throw new Error(`expected a result message, got ${result.type}`);
if (result.is_error) {
  console.log(JSON.stringify({ failed: result.subtype }));
  process.exit(1);
}
const summary = {
  subtype: result.subtype,
  answer: result.result,
  session: result.session_id,
  turns: result.num_turns,
  cost: result.total_cost_usd,
  durationMs: result.duration_ms,
  apiMs: result.duration_api_ms,
  tokens: result.usage.input_tokens + result.usage.cache_read_input_tokens + result.usage.cache_creation_input_tokens + result.usage.output_tokens,
  denied: result.permission_denials.map((d) => `${d.tool_name}:${d.tool_use_id}`),
};

// 2. Resume that session and stream: system/init, assistant and user messages, the result.
const two = await agent(["-p", followUp, "--resume", summary.session, "--output-format", "stream-json", "--verbose"]);
const stream = { init: null, text: [], toolsUsed: [], toolResults: 0, toolErrors: 0, result: null, sessions: new Set(), partial: 0 };
for (const line of two.out.split("\n")) {
  if (!line.trim()) continue;
  const msg = JSON.parse(line);
  stream.sessions.add(msg.session_id);
  switch (msg.type) {
    case "system":
      if (msg.subtype === "init") stream.init = { model: msg.model, tools: msg.tools, cwd: msg.cwd, permissionMode: msg.permissionMode, mcp: msg.mcp_servers };
      break;
    case "assistant":
      for (const block of msg.message.content) {
        if (block.type === "text") stream.text.push(block.text);
        if (block.type === "tool_use") stream.toolsUsed.push(`${block.name}(${JSON.stringify(block.input)})`);
      }
      break;
    case "user":
      for (const block of msg.message.content) {
        if (block.type !== "tool_result") continue;
        stream.toolResults++;
        if (block.is_error) stream.toolErrors++;
      }
      break;
    case "stream_event":
      stream.partial++;
      break;
    case "result":
      stream.result = { subtype: msg.subtype, answer: msg.result, isError: msg.is_error, turns: msg.num_turns, session: msg.session_id };
      break;
    default:
      break; // message types this script does not know are skipped, as Claude Code's docs advise
  }
}

console.log(JSON.stringify({ ...summary, stream: { ...stream, sessions: [...stream.sessions] } }));
process.exit(stream.result?.isError ? 1 : 0);
