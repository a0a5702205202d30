// deepcode's home folder: DEEPCODE_HOME, else ~/.deepcode. A light module: the REPL's fast
// start path needs it before anything heavy loads.
import { homedir } from "node:os";
import { join } from "node:path";

export function deepcodeHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.DEEPCODE_HOME || join(homedir(), ".deepcode");
}
