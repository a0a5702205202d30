// A settings file's bytes as text, strictly: bytes that are not UTF-8 are a ConfigError naming
// the line and column where they start.

import { ConfigError } from "../../contract/index.js";

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });

/** The file's text; bytes that are not UTF-8 are a ConfigError naming the line and column
 *  (decoded leniently they would become U+FFFD and reach the API as a model name). */
export function decodeUtf8(bytes: Buffer, file: string): string {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    let line = 1;
    let column = 1;
    for (let i = 0; i < bytes.length; ) {
      const len = utf8Length(bytes, i);
      if (len === 0) break;
      if (bytes[i] === 0x0a) {
        line++;
        column = 1;
      } else column++;
      i += len;
    }
    throw new ConfigError("holds bytes that are not UTF-8: save the file as UTF-8", file, line, column);
  }
}

/** The length of the valid UTF-8 sequence at `i`, or 0 when the bytes there are not one. */
function utf8Length(b: Buffer, i: number): number {
  const c = b[i];
  const n = c < 0x80 ? 1 : c >= 0xc2 && c < 0xe0 ? 2 : c >= 0xe0 && c < 0xf0 ? 3 : c >= 0xf0 && c < 0xf5 ? 4 : 0;
  if (n === 0 || i + n > b.length) return 0;
  for (let k = 1; k < n; k++) if ((b[i + k] & 0xc0) !== 0x80) return 0;
  try {
    STRICT_UTF8.decode(b.subarray(i, i + n)); // overlong forms and surrogates
  } catch {
    return 0;
  }
  return n;
}
