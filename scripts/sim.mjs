#!/usr/bin/env node
// `npm run sim`: the DeepSeek API simulator on 127.0.0.1, for demos and manual runs without a
// key. It answers from test/sim/demo-script.json (or --script FILE) and stays up until Ctrl-C.
//   node scripts/sim.mjs [--port 8787] [--script file.json] [--key sk-sim]
// `--key ""` accepts any key (or none).
// Each request is logged on one line with its status and what it was billed.
import { readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { startSimulator } from "../test/sim/server.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const usage = "usage: node scripts/sim.mjs [--port 8787] [--script file.json] [--key sk-sim]";

let args;
try {
  args = parseArgs({
    options: {
      port: { type: "string", default: "8787" },
      script: { type: "string", default: join(root, "test", "sim", "demo-script.json") },
      key: { type: "string", default: "sk-sim" },
      help: { type: "boolean", short: "h" },
    },
  }).values;
} catch (err) {
  console.error(`${err instanceof Error ? err.message : String(err)}\n${usage}`);
  process.exit(2);
}
if (args.help) {
  console.log(usage);
  process.exit(0);
}

const port = Number(args.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be a port number, not "${args.port}"\n${usage}`);
  process.exit(2);
}
let script;
try {
  script = JSON.parse(readFileSync(args.script, "utf8"));
} catch (err) {
  console.error(`cannot read the script ${args.script}: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(2);
}

const sim = await startSimulator({
  script,
  port,
  apiKey: args.key || undefined,
  onRequest(r) {
    const u = r.usage;
    const billed = u ? `  prompt ${u.prompt_tokens} (cache hit ${u.prompt_cache_hit_tokens}, miss ${u.prompt_cache_miss_tokens}), output ${u.completion_tokens}` : "";
    console.log(`${new Date().toISOString().slice(11, 19)} ${r.method} ${r.path} ${r.status || "-"}${billed}`);
  },
}).catch((err) => {
  console.error(`cannot start the simulator on port ${port}: ${err.message}`);
  process.exit(1);
});

const bin = relative(process.cwd(), join(root, "bin", "deepcode.js")) || "bin/deepcode.js";
console.log(`DeepSeek API simulator listening on ${sim.url}`);
console.log(`script: ${relative(process.cwd(), args.script) || args.script}`);
console.log("\nRun deepcode against it:\n");
console.log(`  DEEPSEEK_BASE_URL=${sim.url} DEEPSEEK_API_KEY=${args.key || "sk-sim"} node ${bin}\n`);
console.log("Ctrl-C stops it.\n");

const stop = () => {
  const s = sim.stats();
  console.log(`\n${s.requests} billed requests: prompt ${s.promptTokens} tokens (cache hit ${s.hitTokens}, miss ${s.missTokens}), output ${s.completionTokens}`);
  sim.close().then(() => process.exit(0));
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
