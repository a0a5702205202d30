// Project secrets the sandbox hides: files in the workspace (and the other granted folders)
// whose names say they hold credentials — `.env*` but the committed templates, private keys,
// key and certificate files, token files, histories — and the configuration files that hold one
// (an `.npmrc` with a token; a token-free one is configuration: the contract's
// `secretFileReason`). An ignored file counts as much as a tracked one. The walk is the one the
// permission gate uses too (src/lib/secret-walk.ts), so both agree on what is hidden.

import { secretFileReason } from "../../src/contract/secret-content.js";
import { readConfigText } from "../../src/lib/regular-file.js";
import { findSecrets } from "../../src/lib/secret-walk.js";

/** Secret files below these folders (absolute, sorted) — and, with `denied`, every file a
 *  settings read deny names (PluginApi.readDenied: the administrator's `Read(.secrets/**)`). */
export function projectSecrets(dirs: readonly string[], denied?: (path: string) => string | null): string[] {
  return findSecrets(dirs, (name, path) => secretFileReason(name, () => readConfigText(path), path) !== null || (denied?.(path) ?? null) !== null);
}
