// One Grep run in a process of its own, for its peak memory: `node bench/tools-memory.mjs
// <dist folder> <root> <tree> <pattern> <mode> <rg|builtin>` prints the tool's result count
// and the process's peak resident set (process.resourceUsage().maxRSS, KiB) as JSON. A child
// process so the figure is this search's alone (bench/tools.mjs runs it per case); the dist
// folder is a parameter so a before/after comparison can point it at another build.
import { pathToFileURL } from "node:url";
import { join } from "node:path";

const [dist, root, tree, pattern, mode, via] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(join(dist, p)).href);
const { builtinTools, findRg } = await load("src/builtins/index.js");
const { Chain } = await load("src/core/chain.js");
const { registerEffects } = await load("src/core/effects.js");
const { createToolContext } = await load("src/core/tool-context.js");
const chain = new Chain();
registerEffects(chain);
const grep = builtinTools({ rgPath: via === "rg" ? findRg() : null }).find((t) => t.name === "Grep");
const ctx = createToolContext(chain, { root, sessionId: "bench", callId: "bench" });
const before = process.resourceUsage().maxRSS;
const r = await grep.run({ pattern, path: tree, output_mode: mode, head_limit: 0 }, ctx);
if (r.isError) throw new Error(r.content);
process.stdout.write(JSON.stringify({ results: r.meta.results, startKiB: before, peakKiB: process.resourceUsage().maxRSS }));
