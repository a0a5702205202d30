// Which secret reads a contained command cannot make (issue #35: "a command whose only secret
// reads are ones the sandbox hides is contained" — `grep -rn TODO .` beside a `.env` runs).
//
// The sandbox (mods/sandbox) reports what it grants (KnownStatus["sandbox"].grants). A secret at
// a path is out of a contained command's reach when:
//   - the path is in no granted folder: the sandbox does not have it at all (the person's real
//     home — the sandbox shows a private one there —, other projects);
//   - it is in a home credential place or deepcode's home (the contract's secretLocations) inside
//     a grant: the sandbox masks those (the installed plugins' files aside, which it shows);
//   - it is a secret file the sandbox's own walk finds in the folders it walks (src/lib/
//     secret-walk.ts, the same function with the same judgement): those are replaced by an
//     empty file.
// Anything else — a secret the walk does not reach (below node_modules, past its bound), one in
// a toolchain folder — is readable inside, and the read asks as it does without a sandbox.

import { realpathSync } from "node:fs";
import type { SandboxGrants } from "../../../contract/host.js";
import { secretLocations } from "../../../contract/protected.js";
import { secretFileReason } from "../../../contract/secret-content.js";
import { readConfigText } from "../../../lib/regular-file.js";
import { findSecrets } from "../../../lib/secret-walk.js";
import { isWithin } from "../paths.js";

/** How long one walk's answer is reused: a gate decision asks about many paths at once. */
const WALK_FRESH_MS = 2_000;

export function sandboxHides(grants: SandboxGrants, deepcodeHome: string | undefined): (path: string) => boolean {
  const granted = [...grants.readOnly, ...grants.write];
  const places = secretLocations(grants.home, deepcodeHome);
  let walked: { at: number; secrets: Set<string> } | null = null;
  const secrets = (): Set<string> => {
    if (walked === null || Date.now() - walked.at > WALK_FRESH_MS) {
      walked = { at: Date.now(), secrets: new Set(findSecrets(grants.walked, (name, p) => secretFileReason(name, () => readConfigText(p), p) !== null)) };
    }
    return walked.secrets;
  };
  return (path: string): boolean => {
    let p = path;
    try {
      p = realpathSync(path);
    } catch {
      // absent: judged by the path as written
    }
    if (!granted.some((g) => isWithin(p, g))) return true;
    for (const l of places) {
      // Masked — but for the way to a workspace that lies inside it (a plugin developed in place).
      if (isWithin(p, l.path) && !(l.sandboxReadable ?? []).some((r) => isWithin(p, r)) && !grants.write.some((w) => isWithin(p, w))) return true;
    }
    return grants.walked.some((w) => isWithin(p, w)) && secrets().has(p);
  };
}
