// `/init`: an AGENTS.md draft from what the repository shows (commands from its manifests,
// languages, layout, tests, CI), short enough to ride in every request's cached prefix, and
// written where it never destroys anything: an existing AGENTS.md is left alone and the draft
// goes to AGENTS.draft.md next to it.
//
// Where a CLAUDE.md stands and no AGENTS.md, the draft carries CLAUDE.md's text over: deepcode
// reads CLAUDE.md only where no AGENTS.md stands, so a new AGENTS.md would otherwise hide it.

import { readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { repoFacts, MAX_FILES, type RepoFacts } from "./commands/repo-facts.js";

const CLAUDE_MD_MAX_CHARS = 20_000;

export async function draftAgentsMd(root: string): Promise<string> {
  const f = repoFacts(root);
  const out: string[] = [
    "# AGENTS.md",
    "",
    "Guidance for coding agents (and people) working in this repository. Drafted by deepcode's `/init` from what the repository shows: check it, correct it, and add what only you know.",
  ];
  const title = f.name ?? basename(root);
  const about = [f.description, f.readmeHeading && f.readmeHeading !== title ? `README: “${f.readmeHeading}”` : undefined].filter(Boolean).join(" — ");
  out.push("", "## Project", "", `${title}${about ? ` — ${about}` : ""}`);
  if (f.workspaces?.length) out.push("", `A workspace (monorepo): ${f.workspaces.map((w) => `\`${w}\``).join(", ")}.`);

  out.push("", "## Commands", "");
  if (f.commands.length) for (const c of f.commands) out.push(`- ${c.label}: \`${c.command}\`${c.runs && c.runs !== c.command ? ` (runs \`${c.runs}\`)` : ""}`);
  else out.push("- (no build or test commands found: say here how to build, test and lint)");
  if (f.oneTest) out.push(`- One test file: \`${f.oneTest}\``);

  if (f.layout.length || f.topFiles.length) {
    out.push("", "## Layout", "");
    for (const d of f.layout.slice(0, 15)) {
      const what = [d.role, `${d.files} file${d.files === 1 ? "" : "s"}`, d.language && d.role !== d.language ? `mostly ${d.language}` : undefined].filter(Boolean).join(", ");
      out.push(`- \`${d.dir}/\` — ${what}`);
    }
    if (f.layout.length > 15) out.push(`- … and ${f.layout.length - 15} more folders`);
    if (f.topFiles.length) out.push(`- Top-level files: ${f.topFiles.slice(0, 12).join(", ")}${f.topFiles.length > 12 ? ", …" : ""}`);
  }
  if (f.languages.length) {
    const langs = f.languages.slice(0, 6).map(([l, n]) => `${l} (${n})`).join(", ");
    out.push("", `Languages by file count: ${langs}${f.complete ? "" : ` (counted in the first ${MAX_FILES} files)`}.`);
  }
  testSection(f, out);
  if (f.ci.length || f.tooling.length) {
    out.push("", "## Tooling and CI", "");
    if (f.ci.length) out.push(`- CI: ${f.ci.map((c) => `\`${c}\``).join(", ")} — run locally what it runs before saying a change is done.`);
    if (f.tooling.length) out.push(`- Configured: ${f.tooling.join(", ")}; follow their settings rather than your own style.`);
  }
  out.push("", "## Conventions", "", "- (add yours: code style, naming, error handling, what never to commit or touch)");
  const claude = readClaudeMd(root);
  if (claude) out.push("", "## From CLAUDE.md", "", claude);
  return `${out.join("\n")}\n`;
}

function testSection(f: RepoFacts, out: string[]): void {
  if (!f.testDirs.length && !f.testPattern && !f.testFramework) return;
  out.push("", "## Tests", "");
  if (f.testFramework) out.push(`- Framework: ${f.testFramework}.`);
  if (f.testDirs.length) out.push(`- Test folders: ${f.testDirs.map((d) => `\`${d}\``).join(", ")}.`);
  if (f.testPattern) out.push(`- Test files are named \`${f.testPattern}\`; add tests next to the ones that exist.`);
}

/** CLAUDE.md's text when it is the project's instruction file (no AGENTS.md), else undefined. */
function readClaudeMd(root: string): string | undefined {
  try {
    readFileSync(join(root, "AGENTS.md"));
    return undefined; // AGENTS.md stands: CLAUDE.md is not read by deepcode anyway
  } catch {
    // no AGENTS.md: CLAUDE.md is the instructions today
  }
  try {
    const text = readFileSync(join(root, "CLAUDE.md"), "utf8").trim();
    if (!text) return undefined;
    const body = text.replace(/^#\s+.*\n+/, "");
    return body.length > CLAUDE_MD_MAX_CHARS ? `${body.slice(0, CLAUDE_MD_MAX_CHARS)}\n[… cut by deepcode /init; see CLAUDE.md for the rest]` : body;
  } catch {
    return undefined; // no CLAUDE.md
  }
}

export interface InitResult {
  /** The file written. */
  path: string;
  /** Whether an AGENTS.md already stood (and was left as it was). */
  existed: boolean;
  /** One line for the person. */
  message: string;
}

/** Writes AGENTS.md, or AGENTS.draft.md when AGENTS.md exists (replacing an earlier draft). */
export async function writeInitFile(root: string, text: string): Promise<InitResult> {
  const target = join(root, "AGENTS.md");
  try {
    // "wx" (O_EXCL): even a file created a moment ago by someone else is never overwritten.
    writeFileSync(target, text, { flag: "wx" });
    const carried = /\n## From CLAUDE\.md\n/.test(text) ? " CLAUDE.md's text is carried over (deepcode reads CLAUDE.md only where no AGENTS.md stands)." : "";
    return { path: target, existed: false, message: `Wrote ${target}: a draft from what the repository shows; review it and add what only you know.${carried}` };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  const draft = join(root, "AGENTS.draft.md");
  writeFileSync(draft, text);
  return { path: draft, existed: true, message: `AGENTS.md already exists and was left as it is; the draft is in ${draft}. Merge what you want from it by hand.` };
}
