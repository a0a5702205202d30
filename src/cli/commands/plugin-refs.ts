// A plugin command's references to its own files: `@${CLAUDE_PLUGIN_ROOT}/README.md` in its body
// (the variable expanded when the command was loaded) names a file of the installed plugin.
// The mentions hook attaches only files of the project, so such a reference would reach the
// model as a bare path; here it is attached the way the mentions hook attaches a file
// (`<file path="…" lines="N">…</file>` after the prompt) and the `@` is dropped from the text.
//
// Only references written in the command's template count (never one arriving in the
// arguments or a command's output), only files really inside the plugin's folder (after links)
// are read, regular files only, each at most 64 KiB; what cannot be attached is said in place.

import { sep } from "node:path";
import { readOwnFile } from "../../lib/own-file.js";

const MAX_BYTES = 64 * 1024;

/** `prompt` with the template's `@<root>/…` references attached. */
export function attachPluginFiles(prompt: string, template: string, root: string): string {
  const prefix = root.endsWith(sep) ? root : root + sep;
  const refs = new Set<string>();
  for (const m of template.matchAll(/(^|[\s(["'])@(\S+)/g)) {
    const path = m[2].replace(/[.,;:!?)\]"']+$/, "");
    if (path.startsWith(prefix)) refs.add(path);
  }
  if (refs.size === 0) return prompt;
  let text = prompt;
  const blocks: string[] = [];
  for (const path of refs) {
    text = text.split(`@${path}`).join(path);
    const r = readOwnFile(path, { within: [root], maxBytes: MAX_BYTES });
    if (!r.ok) {
      blocks.push(`[the plugin's file ${path} is not attached: ${r.reason}]`);
      continue;
    }
    if (r.data.includes(0)) {
      blocks.push(`[the plugin's file ${path} is not attached: it is binary]`);
      continue;
    }
    const body = r.text.replace(/\n$/, "");
    const cut = r.truncated ? `\n[… cut at ${MAX_BYTES} bytes of ${r.size}; Read the file for the rest]` : "";
    blocks.push(`<file path="${path}" lines="${body.split("\n").length}">\n${body}${cut}\n</file>`);
  }
  return `${text}\n\n${blocks.join("\n\n")}`;
}
