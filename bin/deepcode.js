#!/usr/bin/env node
// The `deepcode` command: a thin shim over the compiled CLI (run `npm run build` first in a checkout).
import { main } from "../dist/src/cli/main.js";

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`deepcode: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
