#!/usr/bin/env node
// Test-only entry point: runs the compiled CLI with a managed-policy path injected through
// code (main's internal parameter), the way an administrator's file at the OS path would be
// found. Usage: node cli-with-managed.mjs <managed-settings.json> <deepcode args…>
import { main } from "../../dist/src/cli/main.js";

const [managedPath, ...args] = process.argv.slice(2);
main(args, { managedPath }).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`deepcode: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
