// `deepcode plugin …` from the shell and `/plugin …` in the REPL: one set of verbs.
// An install or update asks before it applies; where nobody can answer (no terminal) it needs
// `--yes-install`, spelled out — the person's own act, never something a turn can do.

import { existsSync } from "node:fs";
import { createInterface } from "node:readline/promises";
import { parseArgs } from "node:util";
import { closest } from "../../src/lib/closest.js";
import { inert, inertLines } from "../../src/lib/inert.js";
import { digestOfDir } from "./files.js";
import { installPlugin, setPluginEnabled, uninstallPlugin, updatePlugin, type PluginCtx, type Ui } from "./install.js";
import { addMarketplace, describeSource, parseMarketArg, PluginError, removeMarketplace, updateMarketplace } from "./marketplaces.js";
import { listMarketplaces, listPlugins, verifyPlugins } from "./report.js";
import { SCOPES, type Scope } from "./scope.js";
import { readKnown, readLock } from "./store.js";

export const PLUGIN_HELP = `deepcode plugin — Claude Code plugins and marketplaces, with integrity checks

  deepcode plugin list                          installed plugins (enabled?, files intact?) and what marketplaces offer
  deepcode plugin install NAME[@MARKETPLACE]    fetch it, show what it brings, ask, install and enable it
  deepcode plugin update [ID…]                  fetch again; show what changes (files, hooks, servers, permissions), ask, apply
  deepcode plugin verify [ID…] [--accept]       hash every installed file against the lock, listing what changed;
                                                --accept re-pins a plugin you changed on purpose (IDs needed)
  deepcode plugin enable|disable ID             in settings enabledPlugins (--scope, default user)
  deepcode plugin uninstall ID                  remove its files, data, lock entry and enabledPlugins entries
  deepcode plugin digest FOLDER                 the sha256 a marketplace entry pins for a plugin folder
  deepcode plugin marketplace add PATH | GIT-URL[#ref] | OWNER/REPO[#ref]
  deepcode plugin marketplace list | update [NAME] | remove NAME

Options: --scope user|project|local (install, enable, disable, uninstall; default user),
--yes-install (install, update: agree without being asked — needed where there is no terminal).
An ID is <plugin>@<marketplace>. Changes load when deepcode next starts.
`;

const OPTIONS = {
  scope: { type: "string", short: "s" },
  "yes-install": { type: "boolean" },
  accept: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** Run the verbs; the exit code (0 done, 1 failed or declined, 2 usage). */
export async function runPluginVerbs(args: string[], c: Omit<PluginCtx, "ui">, ui: (yes: boolean) => Ui): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    return usage(ui(false), (err as Error).message);
  }
  const { values, positionals } = parsed;
  const [verb, ...rest] = positionals;
  const u = ui(values["yes-install"] === true);
  if (!verb || values.help || verb === "help") {
    u.say(PLUGIN_HELP.trimEnd());
    return verb || values.help ? 0 : 2;
  }
  if (values.accept && verb !== "verify") return usage(u, "--accept belongs to deepcode plugin verify ID…");
  const scope = (values.scope ?? "user") as Scope;
  if (!SCOPES.includes(scope)) return usage(u, `--scope must be user, project or local, not '${values.scope}'`);
  const ctx: PluginCtx = { ...c, ui: u };
  const ONE: Record<string, string> = { install: "NAME[@MARKETPLACE]", enable: "ID", disable: "ID", uninstall: "ID", remove: "ID", digest: "FOLDER" };
  if (ONE[verb] && rest.length !== 1) return usage(u, `deepcode plugin ${verb} takes one ${ONE[verb]}`);
  try {
    switch (verb) {
      case "list":
        listPlugins(ctx);
        return 0;
      case "install": {
        if (await installPlugin(ctx, rest[0], scope)) return 0;
        u.say(values["yes-install"] ? "Not installed." : "Not installed. (Where nobody can be asked, pass --yes-install to agree.)");
        return 1;
      }
      case "update": {
        const ids = rest.length ? rest : Object.keys(readLock(c.home).plugins).sort();
        if (ids.length === 0) u.say("No plugins installed.");
        for (const id of ids) await updatePlugin(ctx, id);
        return 0;
      }
      case "verify":
        if (values.accept && rest.length === 0) return usage(u, "deepcode plugin verify --accept takes the ID of each plugin whose files you changed on purpose");
        return verifyPlugins(ctx, rest, values.accept === true) ? 0 : 1;
      case "enable":
      case "disable": {
        setPluginEnabled(ctx, rest[0], scope, verb === "enable");
        return 0;
      }
      case "uninstall":
      case "remove": {
        await uninstallPlugin(ctx, rest[0], values.scope === undefined ? undefined : scope);
        return 0;
      }
      case "digest": {
        if (!existsSync(rest[0])) throw new PluginError(`${rest[0]}: no such folder`);
        u.say(digestOfDir(rest[0]));
        return 0;
      }
      case "marketplace":
        return await marketplaceVerb(ctx, rest);
      default: {
        const near = closest(verb, ["list", "install", "update", "verify", "enable", "disable", "uninstall", "remove", "digest", "marketplace", "help"]);
        return usage(u, `unknown verb '${verb}'${near ? `; did you mean ${near}?` : ""}`);
      }
    }
  } catch (err) {
    // A refusal (PluginError), a file to fix (ConfigError), git's own words (GitError), or what
    // the file system said while copying or hashing: each is a message and exit 1.
    if (err instanceof Error) {
      u.say(`deepcode: ${err.message}`);
      return 1;
    }
    throw err;
  }
}

async function marketplaceVerb(c: PluginCtx, args: string[]): Promise<number> {
  const [verb, ...rest] = args;
  switch (verb) {
    case "add": {
      if (rest.length !== 1) return usage(c.ui, "deepcode plugin marketplace add takes one PATH, GIT-URL or OWNER/REPO");
      const r = await addMarketplace(c.home, c.settings, parseMarketArg(rest[0], c.root));
      c.ui.say(`${r.replaced ? "Refreshed" : "Added"} marketplace ${r.market.name} (${describeSource(r.market.source)}${r.market.commit ? ` at ${r.market.commit.slice(0, 12)}` : ""}): ${r.file.plugins.length} plugin${r.file.plugins.length === 1 ? "" : "s"}${r.file.owner ? `, by ${inert(r.file.owner)}` : ""}`);
      for (const p of r.file.plugins) c.ui.say(`  ${p.name}@${r.market.name}${p.version ? ` ${inert(p.version)}` : ""}${p.description ? ` — ${inert(p.description)}` : ""}`);
      for (const p of r.file.problems) c.ui.say(`! ${inert(p)}`);
      return 0;
    }
    case "list":
      listMarketplaces(c);
      return 0;
    case "update": {
      const names = rest.length ? rest : Object.keys(readKnown(c.home)).sort();
      for (const n of names) {
        const r = await updateMarketplace(c.home, c.settings, n);
        const moved = r.before && r.market.commit && r.before !== r.market.commit ? ` (${r.before.slice(0, 12)} → ${r.market.commit.slice(0, 12)})` : "";
        c.ui.say(`Updated marketplace ${n}${moved}: ${r.file.plugins.length} plugins. deepcode plugin update installs their new versions.`);
      }
      return 0;
    }
    case "remove": {
      if (rest.length !== 1) return usage(c.ui, "deepcode plugin marketplace remove takes one NAME");
      const m = removeMarketplace(c.home, rest[0]);
      const still = Object.values(readLock(c.home).plugins).filter((p) => p.marketplace === m.name).map((p) => p.id);
      c.ui.say(`Removed marketplace ${m.name}.${still.length ? ` Still installed from it: ${still.join(", ")} (deepcode plugin uninstall ID removes one; they can no longer be updated).` : ""}`);
      return 0;
    }
    default:
      return usage(c.ui, verb ? `unknown marketplace verb '${verb}' (add, list, update, remove)` : "deepcode plugin marketplace add | list | update | remove");
  }
}

function usage(ui: Ui, message: string): number {
  ui.say(`deepcode: ${message}\nRun 'deepcode plugin --help' for usage.`);
  return 2;
}

/** `deepcode plugin …` (the mod's api.subcommand): the settings in force (trust applied), no session. */
export function runPlugin(args: string[], c: Omit<PluginCtx, "ui">): Promise<number> {
  return runPluginVerbs(args, c, terminalUi);
}

function terminalUi(yes: boolean): Ui {
  return {
    // Every line passes through inertLines: the last defence, should a plugin's or a
    // marketplace's text reach a line without being made inert where it was put in.
    say: (line) => void (line.startsWith("deepcode: ") ? process.stderr : process.stdout).write(`${inertLines(line)}\n`),
    confirm: async (title) => {
      if (yes) return true;
      if (!process.stdin.isTTY || !process.stdout.isTTY) {
        process.stderr.write(`deepcode: ${inert(title)} — nobody can answer here (no terminal); pass --yes-install to agree\n`);
        return false;
      }
      const rl = createInterface({ input: process.stdin, output: process.stdout });
      try {
        return /^y(es)?$/i.test((await rl.question(`${inert(title)} [y/N] `)).trim());
      } finally {
        rl.close();
      }
    },
  };
}
