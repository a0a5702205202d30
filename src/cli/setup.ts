import { NotImplementedError } from "../contract/index.js";
export async function runSetup(_home: string): Promise<number> {
  throw new NotImplementedError("deepcode setup");
}
