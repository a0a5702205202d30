// Types for bench/friction-corpus.mjs.
export const BENIGN: Array<[string, string]>;
export const HARMFUL: Array<[string, string]>;
export const CI_BENIGN: string[];
export const CI_HARMFUL: string[];
export const CONFIGS: Array<{ id: string; label: string; settings: object }>;
