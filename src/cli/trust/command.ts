// `deepcode trust`: the person's explicit word about the project in this folder, from the
// shell (a CI image can run it once). Shows what trusting it lets take effect.
//   deepcode trust            trust the project as it is now (asked again when that changes)
//   deepcode trust --show     say whether it is trusted and what needs trust
//   deepcode trust --revoke   keep it untrusted (the REPL stops asking until it changes)
// (Its options and --help come from its row in options.ts; docs/permissions.md explains trust.)

import type { AssembleOptions } from "../assemble.js";
import { deepcodeHome } from "../home.js";
import { defaultManagedPath, loadSettings } from "../settings/load.js";
import { describeItems, rememberTrust, resolveTrust, trustLine } from "./index.js";

export function runTrust(values: { show: boolean; revoke: boolean }, o: AssembleOptions, out: NodeJS.WritableStream = process.stdout): number {
  const home = o.home ?? deepcodeHome(o.env ?? process.env);
  const settings = loadSettings({ root: o.root, home, flagFile: o.flagSettings, managedPath: o.managedPath ?? defaultManagedPath() });
  const state = resolveTrust({ root: o.root, home, settings });
  const items = describeItems(state, o.root).map((l) => `  ${l}`);
  if (values.show) {
    out.write(`${state.root}: ${trustLine(state)}\n${items.length ? `${items.join("\n")}\n` : ""}`);
    return 0;
  }
  rememberTrust(home, state, !values.revoke);
  if (values.revoke) {
    out.write(`${state.root} stays untrusted${items.length ? `; ignored while it is:\n${items.join("\n")}` : ""}\n`);
    return 0;
  }
  out.write(items.length ? `Trusted ${state.root}. These now take effect:\n${items.join("\n")}\n` : `Trusted ${state.root} (nothing in it needs trust yet; you will be asked again if that changes).\n`);
  return 0;
}
