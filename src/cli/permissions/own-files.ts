// The secret check for files deepcode reads on its own (PluginApi.readOwnFile, src/core/own-file.ts):
// what the Read tool would ask about, minus deepcode's home as a whole — the person's own
// instructions, skills, agents and commands live there — but never deepcode's credentials file,
// whatever it is called (a symlink or a hard link to it counts as it).

import { join } from "node:path";
import { CREDENTIALS_FILE } from "../../contract/protected.js";
import { canonical, secretReason, viewPath, type PathEnv } from "./paths.js";

export function ownFileSecret(env: () => PathEnv): (path: string) => string | undefined {
  return (path) => {
    const e = env();
    const view = viewPath(path);
    const why = secretReason(view, e, { sessionOutput: true });
    if (why) return why;
    const cred = join(e.deepcodeHome ?? join(e.home, ".deepcode"), CREDENTIALS_FILE);
    const credReal = canonical(cred);
    if (view.lexical === cred || (view.real !== null && (view.real === cred || view.real === credReal))) return "deepcode's credentials file";
    return undefined;
  };
}
