// Types of run.mjs (plain JavaScript so node runs it directly).
export type Suite = "old" | "next";
export const NODE22: string;
export const SUITES: Record<Suite, string>;
export const CLIENT: string;
export interface ScenarioResult {
  suite: Suite;
  name: string;
  passed: boolean;
  /** passed, total, failed, warnings */
  counts?: number[];
  failures: string[];
  out: string;
}
export function clientScenarios(suite: Suite): Promise<Array<{ name: string; versions: string }>>;
export function runScenario(suite: Suite, name: string, cwd: string): Promise<ScenarioResult>;
