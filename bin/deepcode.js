#!/usr/bin/env node
// The `deepcode` command: a thin shim over the compiled CLI (run `npm run build` first in a checkout).
//
// CommonJS on purpose (bin/package.json): `deepcode --version` answers without starting Node's
// ES module loader, which alone costs about a fifth of bare `node -e 0` (bench startup). That
// answer reads nothing else — no environment, no settings — and starts nothing, so it needs
// none of the start-up main() does (sealing the API key first of all). Everything else is the
// ES module CLI, loaded here.
"use strict";

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-v")) {
  const { readFileSync } = require("node:fs");
  const { join } = require("node:path");
  process.stdout.write(`${JSON.parse(readFileSync(join(__dirname, "..", "package.json"), "utf8")).version}\n`);
} else {
  import("../dist/src/cli/main.js")
    .then((cli) => cli.main(argv))
    .then(
      (code) => {
        process.exitCode = code;
      },
      (err) => {
        process.stderr.write(`deepcode: ${err instanceof Error ? err.message : String(err)}\n`);
        process.exitCode = 1;
      },
    );
}
