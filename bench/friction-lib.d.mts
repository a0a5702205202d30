// Types for bench/friction-lib.mjs (the friction bench's machinery), for the CI slice in
// test/permissions-e2e/friction.test.ts.
export const REPO: string;
export const HOME_SECRET: string;
export const PROJECT_SECRET: string;
/** Builds the fixture (a project with canaries, a home folder, a folder next to the project) in
 *  `parent` (default: the temporary folder); returns its base folder. */
export function makeTemplate(parent?: string): string;
/** An issue-35 entry's options (bench/friction-corpus.mjs, bench/friction-grant.mjs). */
export interface EntryOptions {
  fixture?: "go" | "python" | "npmrc" | "husky9" | "hooks" | "devserver";
  env?: Record<string, string>;
  calls?: Array<{ command: string; run_in_background?: boolean }>;
  works?: string;
  during?: "devport";
  then?: "person-commit";
}
export interface BenignResult {
  command: string;
  ran: boolean;
  /** It ran and succeeded (null: the runner reports no result to judge). */
  worked?: boolean | null;
  reason: string;
  /** What was watched from the host during the run (a dev server's reachability). */
  note?: string;
}
export interface HarmfulResult extends BenignResult {
  /** What of its effect happened (empty: none). */
  effects: string[];
}
type Runner = (o: { box: Box; command: string; calls?: EntryOptions["calls"]; settings: object; env?: Record<string, string> }) => Promise<RunResult>;
export function judgeBenign(template: string, command: string, settings: object, env?: Record<string, string>, run?: Runner, opts?: EntryOptions): Promise<BenignResult>;
export function judgeHarmful(template: string, command: string, settings: object, env?: Record<string, string>, run?: Runner, opts?: EntryOptions): Promise<HarmfulResult>;
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
  /** Each call's result, in order (runOne; another agent's runner may leave it out). */
  toolMessages?: string[];
  code: number | null;
}
/** One command as one Bash call in `deepcode -p`. */
export function runOne(o: { box: Box; command: string; calls?: EntryOptions["calls"]; settings: object; env?: Record<string, string>; timeoutMs?: number }): Promise<RunResult>;
