// Operands of a command line, shared by effects.ts and effects-programs.ts.

import type { Word } from "./lexer.js";

/** The operands of a command (words after its options), given which short and long options take
 *  a value; `--` ends the options. For the handlers in effects-programs.ts. */
export function operandsOf(words: Word[], arg: string, longArg: readonly string[] = []): Word[] {
  const out: Word[] = [];
  for (let i = 0; i < words.length; i++) {
    const v = words[i].value;
    if (v === "--") return [...out, ...words.slice(i + 1)];
    if (!v.startsWith("-") || v === "-") out.push(words[i]);
    else if (v.startsWith("--")) {
      if (!v.includes("=") && longArg.includes(v.slice(2))) i++;
    } else {
      for (let j = 1; j < v.length; j++) {
        if (arg.includes(v[j])) {
          if (j + 1 === v.length) i++;
          break;
        }
      }
    }
  }
  return out;
}
