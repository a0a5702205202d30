// What an ACP prompt's content blocks become: the one prompt text a session's submit takes.

import { isAbsolute, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { INVALID_PARAMS, RpcError } from "./rpc.js";

/** The prompt's blocks as one prompt: text as it is, a file link inside the project as an
 *  @-mention (attached the way the REPL attaches it), embedded text resources inline. */
export function promptText(blocks: unknown, root: string): string {
  if (!Array.isArray(blocks)) throw new RpcError(INVALID_PARAMS, "'prompt' must be an array of content blocks");
  const parts: string[] = [];
  for (const b of blocks as Array<Record<string, unknown>>) {
    if (b?.type === "text" && typeof b.text === "string") parts.push(b.text);
    else if (b?.type === "resource_link" && typeof b.uri === "string") parts.push(linkText(b.uri, typeof b.name === "string" ? b.name : b.uri, root));
    else if (b?.type === "resource" && typeof b.resource === "object" && b.resource !== null) {
      const r = b.resource as Record<string, unknown>;
      if (typeof r.text !== "string") throw new RpcError(INVALID_PARAMS, `embedded resource ${String(r.uri)} has no text (deepcode takes text resources only)`);
      parts.push(`<context uri="${String(r.uri)}">\n${r.text}\n</context>`);
    } else throw new RpcError(INVALID_PARAMS, `deepcode does not take '${String(b?.type)}' blocks in a prompt (text, resource_link and text resources)`);
  }
  return parts.join("\n");
}

function linkText(uri: string, name: string, root: string): string {
  if (uri.startsWith("file://")) {
    const path = fileURLToPath(uri);
    const rel = relative(root, path);
    if (rel && !rel.startsWith("..") && !isAbsolute(rel) && !/\s/.test(rel)) return `@${rel}`;
    return /\s/.test(path) ? `[${name}](${uri})` : `@${path}`;
  }
  return `[${name}](${uri})`;
}
