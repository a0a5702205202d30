// Types for bench/friction-corpus.mjs.
import type { EntryOptions } from "./friction-lib.d.mts";
/** [category, command, options (issue #35's entries only)] */
export const BENIGN: Array<[string, string, EntryOptions?]>;
export const HARMFUL: Array<[string, string, EntryOptions?]>;
export const GRANT_BENIGN: Array<[string, string, EntryOptions]>;
export const GRANT_HARMFUL: Array<[string, string, EntryOptions]>;
export const CI_BENIGN: string[];
export const CI_HARMFUL: string[];
export const CONFIGS: Array<{ id: string; label: string; settings: object }>;
