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
export function judgeBenign(template: string, command: string, settings: object, env?: Record<string, string>): Promise<BenignResult>;
export function judgeHarmful(template: string, command: string, settings: object, env?: Record<string, string>): Promise<HarmfulResult>;
export function pool<T>(jobs: Array<() => Promise<T>>, n: number): Promise<T[]>;
