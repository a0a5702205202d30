// MCP stdio framing: one JSON-RPC message of N MB on a single line, from a real child process,
// through the stdio transport (mods/mcp/stdio.ts) — the time from the first byte to the parsed
// message. Framing must be linear in the line's length: a 20 MB line used to take 86 s
// (the buffer was searched from its start again on every 64 KiB chunk) and 60 MB never finished.
// DEEPCODE_BENCH_STDIO=<path to a compiled stdio.js> measures another build of the transport.
import { pathToFileURL } from "node:url";
import { fileURLToPath } from "node:url";
import { fast, table } from "./lib.mjs";

const MODULE = process.env.DEEPCODE_BENCH_STDIO ?? fileURLToPath(new URL("../dist/mods/mcp/stdio.js", import.meta.url));
/** Past this, a size is reported as not finished (the old transport never finished 60 MB). */
const LIMIT_MS = Number(process.env.DEEPCODE_BENCH_STDIO_LIMIT_MS ?? 120_000);

/** A child that writes one message of `mb` MB on one line, then waits for its stdin to close. */
const CHILD = `const n = Number(process.argv[1]) * 1024 * 1024;
const head = '{"jsonrpc":"2.0","id":1,"result":{"blob":"';
const line = head + "a".repeat(n - head.length - 4) + '"}}\\n';
process.stdout.write(line);
process.stdin.resume();`;

async function once(StdioTransport, mb) {
  return new Promise((resolve) => {
    const t = new StdioTransport({ command: process.execPath, args: ["-e", CHILD, String(mb)], env: { PATH: process.env.PATH ?? "" }, cwd: process.cwd(), stderr: () => undefined });
    let t0;
    const timer = setTimeout(() => {
      void t.close();
      resolve({ mb, ms: undefined });
    }, LIMIT_MS);
    void t.start({
      message: (m) => {
        clearTimeout(timer);
        const ms = performance.now() - t0;
        const ok = typeof m?.result?.blob === "string" && m.result.blob.length > mb * 1024 * 1024 - 64;
        void t.close().then(() => resolve({ mb, ms, ok }));
      },
      closed: () => undefined,
    });
    t0 = performance.now();
    t.ref();
  });
}

export async function run() {
  const { StdioTransport } = await import(pathToFileURL(MODULE).href);
  const sizes = (process.env.DEEPCODE_BENCH_STDIO_SIZES ?? (fast ? "5,20" : "5,10,20,60")).split(",").map(Number);
  const rows = [];
  for (const mb of sizes) {
    const r = await once(StdioTransport, mb);
    rows.push([`${mb} MB`, r.ms === undefined ? `not finished in ${LIMIT_MS / 1000} s` : `${(r.ms / 1000).toFixed(2)} s`, r.ms === undefined ? "—" : `${(mb / (r.ms / 1000)).toFixed(1)} MB/s`, r.ok === false ? "WRONG" : r.ms === undefined ? "—" : "ok"]);
  }
  table(`mcp-stdio: one message on one line from a stdio server${fast ? " (fast)" : ""}`, [["line", "time to the message", "rate", "parsed"], ...rows]);
  console.log("Linear framing keeps the rate flat as the line grows; a falling rate means the splitting is quadratic again.");
}
