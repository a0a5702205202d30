import { NotImplementedError } from "../../contract/index.js";
import type { AssembleOptions } from "../assemble.js";
export async function runRepl(_o: AssembleOptions, _s: { continue?: boolean; resume?: string; initialPrompt?: string }): Promise<number> {
  throw new NotImplementedError("the interactive REPL");
}
