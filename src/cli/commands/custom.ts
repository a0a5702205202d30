// Custom slash commands: Markdown files whose body is a prompt template, in Claude Code's
// format so its `.claude/commands/` files work unchanged.
//
// Where they come from, highest precedence first (the first file to claim a name wins):
//   1. <home>/commands/**/*.md             (user; home is ~/.deepcode or DEEPCODE_HOME)
//   2. <userHome>/.claude/commands/**/*.md (user, Claude Code's)
//   3. each enabled plugin's commands/ (and the paths its plugin.json adds), as /<plugin>:<name>
//   4. <root>/.deepcode/commands/**/*.md   (project)
//   5. <root>/.claude/commands/**/*.md     (project, Claude Code's)
// A project never silently replaces a command the person has: a project file whose name one of
// theirs (their own or an installed plugin's: `.claude/commands/kit/deploy.md` against the
// plugin's /kit:deploy) already holds is offered as /project:<name> instead (Claude Code's old
// prefix for project commands), with a warning naming both files. A file in a sub-folder is namespaced:
// `git/commit.md` → `/git:commit`, and answers to Claude Code's name for it, `/commit`, as well
// (command-files.ts `aliases`: the first file to claim that name keeps it, the other is told). Hidden files and folders are skipped. A plugin's commands are
// the person's own (they installed it): its `allowed-tools` and !`cmd` lines apply untrusted too.
//
// Frontmatter keys: description, argument-hint, allowed-tools, model. A problem in a header line
// is a warning naming file and line; the command still loads with defaults for what was bad. A
// header that is never closed (`---` with no closing `---`) is not registered at all, with a
// warning saying so: its header would otherwise be sent as the prompt.
// Decisions where Claude Code's format and deepcode differ:
// - `model` naming a Claude model (claude-*, haiku, sonnet, opus) is dropped with a warning:
//   those names mean nothing to the DeepSeek API, and the session's model is the better guess.
// - Unknown keys are warned about in deepcode's own folders only; Claude Code files may carry
//   keys of newer Claude Code versions, and their owners should not see noise for them.

import { homedir } from "node:os";
import { join } from "node:path";
import { ownFileSecret } from "../permissions/own-files.js";
import { collect, loadPluginCommands as load, pluginPlaces, type CustomCommand, type Place, type PluginCommandSource } from "../../lib/command-files.js";
import { listField, parseFrontmatter } from "../../lib/frontmatter.js";

export { MAX_COMMAND_BYTES, type CustomCommand, type PluginCommandSource } from "../../lib/command-files.js";
export { bangCommands, expandCommand, splitArgs, engineRunner, type CommandRunner, type ExpandedCommand } from "./expand.js";

export interface LoadCommandsOptions {
  root: string;
  /** deepcode's home (~/.deepcode or DEEPCODE_HOME). */
  home: string;
  /** The person's home folder, where `~/.claude/commands/` lives (default os.homedir()). */
  userHome?: string;
  /** Built-in command names (without the slash): a file claiming one is skipped with a warning. */
  reserved?: readonly string[];
  /** Enabled plugins' command folders and files (the marketplace mod's status, KnownStatus["marketplace"].commands). */
  plugins?: readonly PluginCommandSource[];
}

export function loadCustomCommands(o: LoadCommandsOptions): { commands: CustomCommand[]; warnings: string[] } {
  const userHome = o.userHome ?? homedir();
  const mine: Place[] = [
    { dir: join(o.home, "commands"), scope: "user", origin: "deepcode" },
    { dir: join(userHome, ".claude", "commands"), scope: "user", origin: "claude" },
  ];
  const project: Place[] = [
    { dir: join(o.root, ".deepcode", "commands"), scope: "project", origin: "deepcode", within: [o.root] },
    { dir: join(o.root, ".claude", "commands"), scope: "project", origin: "claude", within: [o.root] },
  ];
  const secret = ownFileSecret(() => ({ root: o.root, home: userHome, deepcodeHome: o.home }));
  return collect([...mine, ...pluginPlaces(o.plugins ?? []), ...project], new Set(o.reserved ?? []), FORMAT, secret);
}

const FORMAT = { parseFrontmatter, listField };

/** Only the commands of these plugin sources (what an install shows it brings). */
export function loadPluginCommands(sources: readonly PluginCommandSource[]): { commands: CustomCommand[]; warnings: string[] } {
  return load(sources, FORMAT);
}
