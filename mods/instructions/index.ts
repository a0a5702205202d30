// Built-in mod: project instructions. Adds the user's own ~/.deepcode/AGENTS.md, the project's
// AGENTS.md and CLAUDE.md, its rules (.claude/rules, rules.ts) and the person's private
// AGENTS.local.md and CLAUDE.local.md (keep them git-ignored) to the system prompt's sections, in
// that order. Where both names of a pair stand, both are read — a Claude Code user's memory
// must not vanish — unless CLAUDE.md is AGENTS.md (a link to it, or the same text), or holds
// nothing but an `@AGENTS.md` import of it: then AGENTS.md alone is sent, once. Memory (`# text`, /memory, the Remember tool) writes to these files. It registers through
// the same interface as any third-party plugin. The engine gathers sections once for the
// cached prefix and again each turn: an edit mid-session reaches the model as a tail note
// with the new text, never as a prefix change.
//
// A file longer than the limit is cut (it rides on every request), and the cut is said to the
// person as the section's `note` (banner, /context, doctor) with the limit and how to change
// it: settings `pluginConfig.instructions.maxChars` (default 40 000 characters).
//
// Every file is read through api.readOwnFile (the Read tool's identity checks, refusing where
// Read would ask): a project's file must really lie in the project with one name (an AGENTS.md
// symlinked or hard-linked to ~/.ssh/id_rsa is not read), never a secret, a regular file only
// (a FIFO does not hang start-up), and at most what the character limit needs. A refused file
// is said once, with why.
import { join } from "node:path";
import type { Plugin, PluginApi, SystemSection } from "../../src/contract/index.js";
import { ruleSections } from "./rules.js";

type ReadOwn = PluginApi["readOwnFile"];

/** Instruction files larger than this are cut (with a note): they ride on every request. */
export const DEFAULT_MAX_CHARS = 40_000;

interface Read {
  text: string;
  /** The file's real path (after links). */
  real?: string;
  /** The file's length when it was cut. */
  cutFrom?: number;
}

/** The file's text (cut to `max` characters), undefined when there is none; a refused file is
 *  one that stands but is not read (its reason goes to `refused`). */
function read(readOwn: ReadOwn, path: string, max: number, within: string[] | undefined, refused: string[]): Read | undefined {
  // UTF-8 takes at most 4 bytes a character: this many bytes always hold `max` characters.
  const r = readOwn(path, { within, maxBytes: max * 4 + 4 });
  if (!r.ok) {
    if (r.missing) return undefined; // no such file: nothing to add
    refused.push(r.reason);
    return { text: "" };
  }
  const text = r.text;
  if (text.length <= max && !r.truncated) return { text, real: r.real };
  const total = r.truncated ? Math.max(r.size, text.length) : text.length;
  return { text: `${text.slice(0, max)}\n[… cut by deepcode: ${total - max} more characters]`, cutFrom: total, real: r.real };
}

function cutNote(path: string, r: Read, max: number): string | undefined {
  if (r.cutFrom === undefined) return undefined;
  const size = r.cutFrom >= 1_000_000 ? `${(r.cutFrom / 1_000_000).toFixed(1)}M` : `${Math.round(r.cutFrom / 1000)}k`;
  return `${path} has ${size} characters; only the first ${max.toLocaleString("en-US")} are sent (raise or lower the limit with settings pluginConfig.instructions.maxChars)`;
}

/** The instruction sections; `refused` receives why a file that stands was not read. */
export function instructionSections(readOwn: ReadOwn, root: string, home: string, max = DEFAULT_MAX_CHARS, refused: string[] = []): SystemSection[] {
  const out: SystemSection[] = [];
  const userFile = join(home, "AGENTS.md");
  // The person's own file: wherever it leads (they placed it), but never to a secret.
  const user = read(readOwn, userFile, max, undefined, refused);
  if (user?.text.trim()) out.push(section("instructions:user", `The user's own instructions (${userFile}):\n\n${user.text.trim()}`, cutNote(userFile, user, max)));
  const files: Array<[string[], string]> = [
    [["AGENTS.md", "CLAUDE.md"], "Project instructions"],
    [["AGENTS.local.md", "CLAUDE.local.md"], "The user's private instructions for this project"],
  ];
  for (const [[ours, claudes], what] of files) {
    const first = read(readOwn, join(root, ours), max, [root], refused);
    const second = read(readOwn, join(root, claudes), max, [root], refused);
    if (first?.text.trim()) out.push(section(`instructions:${ours}`, `${what} (${ours} in the project root):\n\n${first.text.trim()}`, cutNote(ours, first, max)));
    const rest = second && first ? beyond(second, first, ours) : second?.text;
    if (second && rest?.trim()) out.push(section(`instructions:${claudes}`, `${what} (${claudes} in the project root${rest !== second.text ? `; its import of ${ours} is the section above` : ""}):\n\n${rest.trim()}`, cutNote(claudes, second, max)));
    if (ours === "AGENTS.md") out.push(...ruleSections(readOwn, root, max, refused));
  }
  return out;
}

/** What CLAUDE.md says beyond AGENTS.md: nothing when it is that file (a link) or its text, else
 *  its text without lines that only import AGENTS.md (`@AGENTS.md`, Claude Code's import). */
function beyond(claude: Read, agents: Read, agentsName: string): string {
  if ((claude.real && claude.real === agents.real) || claude.text.trim() === agents.text.trim()) return "";
  const importLine = new RegExp(`^\\s*@(?:\\./)?${agentsName.replace(".", "\\.")}\\s*$`);
  const lines = claude.text.split("\n");
  return lines.some((l) => importLine.test(l)) ? lines.filter((l) => !importLine.test(l)).join("\n") : claude.text;
}

function section(id: string, text: string, note: string | undefined): SystemSection {
  return note ? { id, text, note } : { id, text };
}

const plugin: Plugin = {
  id: "instructions",
  description: "AGENTS.md / CLAUDE.md project instructions and .claude/rules in the system prompt",
  register(api) {
    const configured = api.config.maxChars;
    if (configured !== undefined && (typeof configured !== "number" || !Number.isInteger(configured) || configured < 1000)) {
      api.log.warn(`pluginConfig.instructions.maxChars must be a whole number ≥ 1000, not ${JSON.stringify(configured)}; using ${DEFAULT_MAX_CHARS}`);
    }
    const max = typeof configured === "number" && Number.isInteger(configured) && configured >= 1000 ? configured : DEFAULT_MAX_CHARS;
    const said = new Set<string>();
    api.on("context.system", async (e, next) => {
      const r = await next(e);
      const refused: string[] = [];
      const sections = instructionSections((p, o) => api.readOwnFile(p, o), e.root, api.home, max, refused);
      for (const why of refused) if (!said.has(why)) {
        said.add(why);
        api.log.warn(why);
      }
      return { sections: [...r.sections, ...sections] };
    });
  },
};

export default plugin;
