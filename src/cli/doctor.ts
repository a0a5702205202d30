import { NotImplementedError } from "../contract/index.js";
import type { AssembleOptions } from "./assemble.js";
export async function runDoctor(_o: AssembleOptions): Promise<number> {
  throw new NotImplementedError("deepcode doctor");
}
