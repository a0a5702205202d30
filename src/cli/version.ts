// The package version, read from package.json next to the compiled tree (dist/src/cli → ../../..).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const PACKAGE_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(`${PACKAGE_ROOT}package.json`, "utf8")) as { version: string };
  return pkg.version;
}
