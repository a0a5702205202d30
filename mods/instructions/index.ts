// Built-in mod: project instructions. Adds AGENTS.md (CLAUDE.md where no AGENTS.md stands) and
// the user's own ~/.deepcode/AGENTS.md to the system prompt's sections. It registers through
// the same interface as any third-party plugin. The engine gathers sections once for the
// cached prefix and again each turn: an edit mid-session reaches the model as a tail note
// with the new text, never as a prefix change.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Plugin, SystemSection } from "../../src/contract/index.js";

/** Instruction files larger than this are cut (with a note): they ride on every request. */
const MAX_CHARS = 40_000;

function read(path: string): string | undefined {
  try {
    const text = readFileSync(path, "utf8");
    return text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS)}\n[… cut by deepcode: ${text.length - MAX_CHARS} more characters]` : text;
  } catch {
    return undefined; // no such file: nothing to add
  }
}

export function instructionSections(root: string, home: string): SystemSection[] {
  const out: SystemSection[] = [];
  const user = read(join(home, "AGENTS.md"));
  if (user?.trim()) out.push({ id: "instructions:user", text: `The user's own instructions (${join(home, "AGENTS.md")}):\n\n${user.trim()}` });
  for (const name of ["AGENTS.md", "CLAUDE.md"]) {
    const text = read(join(root, name));
    if (text !== undefined) {
      if (text.trim()) out.push({ id: `instructions:${name}`, text: `Project instructions (${name} in the project root):\n\n${text.trim()}` });
      break; // CLAUDE.md only where no AGENTS.md stands
    }
  }
  return out;
}

const plugin: Plugin = {
  id: "instructions",
  description: "AGENTS.md / CLAUDE.md project instructions in the system prompt",
  register(api) {
    api.on("context.system", async (e, next) => {
      const r = await next(e);
      return { sections: [...r.sections, ...instructionSections(e.root, api.home)] };
    });
  },
};

export default plugin;
