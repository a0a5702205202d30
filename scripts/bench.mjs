#!/usr/bin/env node
// `npm run bench [-- --fast] [-- section…]`: every benchmark section, printed side by side with
// its baseline. Sections live in bench/*.mjs and export `run()`. On-demand sections (peers: it
// installs and runs other agents, minutes long) run only when named: `npm run bench -- peers`.
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

const dir = fileURLToPath(new URL("../bench/", import.meta.url));
const wanted = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const order = ["chain", "gate", "cache", "cost", "tools", "loop", "startup"];
const onDemand = ["peers", "friction", "ecosystem"];
const sections = readdirSync(dir)
  .filter((f) => f.endsWith(".mjs") && f !== "lib.mjs" && !f.startsWith("friction-"))
  .map((f) => f.slice(0, -4))
  .filter((s) => (wanted.length === 0 ? !onDemand.includes(s) : wanted.includes(s)))
  .sort((a, b) => (order.indexOf(a) + 99) % 99 - (order.indexOf(b) + 99) % 99);
console.log(`deepcode benchmarks — node ${process.version}, ${new Date().toISOString()}`);
for (const s of sections) {
  const mod = await import(new URL(`../bench/${s}.mjs`, import.meta.url));
  if (typeof mod.run === "function") await mod.run(); // sessions.mjs, naive-agent.mjs: shared by sections
}
