// An Edit or Write of a package.json that adds or changes what npm or a git hook manager runs
// without the person naming it — a lifecycle script (`postinstall`, `prepare` …) or a hook
// manager's key (`husky`, `gitHooks`, `simple-git-hooks`, `pre-commit`, `lint-staged`): the
// contract's lists (src/contract/package-scripts.ts). Such a change is the person's call, so it asks,
// as a protected path does (an allow rule naming that package.json lifts it, checks.ts). The
// sandbox puts the same change back when a contained command makes it (mods/sandbox/lifecycle.ts).

import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { changedRunKeys, LIFECYCLE_SCRIPTS, PACKAGE_HOOK_KEYS } from "../../../contract/package-scripts.js";

/** Why this call's change to `abs` asks (the keys it adds or changes), or null. */
export function lifecycleChange(tool: string, input: Readonly<Record<string, unknown>>, abs: string): string | null {
  if (basename(abs) !== "package.json" || (tool !== "Edit" && tool !== "Write" && tool !== "MultiEdit")) return null;
  let old: string | undefined;
  try {
    old = readFileSync(abs, "utf8");
  } catch {
    old = undefined; // a new file: everything it holds is new
  }
  const next = newText(tool, input, old);
  let keys: string[];
  if (next === undefined) {
    // The tool's own matching (near misses) decides what the text becomes: judged by the words.
    const words = [input.old_string, input.new_string, ...(Array.isArray(input.edits) ? input.edits.flatMap((e: Record<string, unknown>) => [e.old_string, e.new_string]) : [])].filter((x): x is string => typeof x === "string").join("\n");
    keys = [...LIFECYCLE_SCRIPTS, ...PACKAGE_HOOK_KEYS].filter((k) => words.includes(`"${k}"`));
  } else {
    keys = changedRunKeys(parse(old), parse(next));
  }
  if (keys.length === 0) return null;
  return `${abs}: the change adds or changes ${keys.join(", ")}, which npm or a git hook runs without you naming it (at the next install, pack or commit), so it always asks (an allow rule naming this package.json lifts this)`;
}

/** The file's text after the call, when it can be worked out exactly; undefined otherwise. */
function newText(tool: string, input: Readonly<Record<string, unknown>>, old: string | undefined): string | undefined {
  if (tool === "Write") return typeof input.content === "string" ? input.content : undefined;
  const edits = tool === "MultiEdit" && Array.isArray(input.edits) ? (input.edits as Array<Record<string, unknown>>) : [input];
  let text = old ?? "";
  for (const e of edits) {
    const from = e.old_string;
    const to = e.new_string;
    if (typeof from !== "string" || typeof to !== "string") return undefined;
    if (from === "") {
      if (text !== "") return undefined;
      text = to;
      continue;
    }
    if (!text.includes(from)) return undefined;
    text = e.replace_all === true ? text.split(from).join(to) : text.replace(from, () => to);
  }
  return text;
}

function parse(text: string | undefined): unknown {
  if (text === undefined) return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return {}; // not JSON: npm runs nothing from it
  }
}
