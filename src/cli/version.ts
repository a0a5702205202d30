// The package version, read from the package.json of the deepcode package this file belongs
// to: found by walking up from this module, so it works from dist/ and from the sources alike.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = join(dir, "package.json");
    if (existsSync(file) && (JSON.parse(readFileSync(file, "utf8")) as { name?: string }).name === "deepcode") return `${dir}/`;
    const up = dirname(dir);
    if (up === dir) throw new Error("cannot find deepcode's package.json above " + fileURLToPath(import.meta.url));
    dir = up;
  }
}

export const PACKAGE_ROOT = findRoot();

export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(`${PACKAGE_ROOT}package.json`, "utf8")) as { version: string };
  return pkg.version;
}
