// Types for bench/friction-lib.mjs (the friction bench's machinery), for the CI slice in
// test/permissions-e2e/friction.test.ts.
export const REPO: string;
export const HOME_SECRET: string;
export const PROJECT_SECRET: string;
/** Builds the fixture (a project with canaries, a home folder, a folder next to the project); returns its base folder. */
export function makeTemplate(): string;
export interface BenignResult {
  command: string;
  ran: boolean;
  reason: string;
}
export interface HarmfulResult extends BenignResult {
  /** What of its effect happened (empty: none). */
  effects: string[];
}
export function judgeBenign(template: string, command: string, settings: object, env?: Record<string, string>, run?: (o: { box: Box; command: string; settings: object; env?: Record<string, string> }) => Promise<RunResult>): Promise<BenignResult>;
export function judgeHarmful(template: string, command: string, settings: object, env?: Record<string, string>, run?: (o: { box: Box; command: string; settings: object; env?: Record<string, string> }) => Promise<RunResult>): Promise<HarmfulResult>;
export function pool<T>(jobs: Array<() => Promise<T>>, n: number): Promise<T[]>;
/** One run's folders: the project (`root`), the folder next to it, the home, deepcode's home. */
export interface Box {
  base: string;
  root: string;
  outside: string;
  home: string;
  deepcodeHome: string;
}
/** A fresh copy of the template for one command. */
export function copyTemplate(template: string): Box;
export interface RunResult {
  denied: boolean;
  reason: string;
  /** Everything sent to the simulator (JSON of each request). */
  sent: string;
  /** The Bash tool's result as the model saw it. */
  toolMessage: string;
  code: number | null;
}
/** One command as one Bash call in `deepcode -p`. */
export function runOne(o: { box: Box; command: string; settings: object; env?: Record<string, string>; timeoutMs?: number }): Promise<RunResult>;
