// Regular expressions from others (a project's hookify rule, a model's BashOutput filter) run
// in deepcode's own thread, where a match cannot be interrupted: what can make one take minutes
// is found before it is compiled.

/** Does a quantified group hold a quantifier (star height above one)? Over JavaScript source. */
export function nestedQuantifier(src: string): boolean {
  const repeats = (i: number): boolean => src[i] === "*" || src[i] === "+" || (src[i] === "{" && /^\{\d+(,\d*)?\}/.test(src.slice(i)));
  const stack: boolean[] = []; // per open group: does it hold a quantifier?
  let inClass = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === "\\") {
      i++;
      continue;
    }
    if (inClass) {
      if (c === "]") inClass = false;
      continue;
    }
    if (c === "[") inClass = true;
    else if (c === "(") stack.push(false);
    else if (c === ")") {
      const inner = stack.pop() ?? false;
      const quantified = repeats(i + 1);
      if (inner && quantified) return true;
      if ((inner || quantified) && stack.length) stack[stack.length - 1] = true;
    } else if (repeats(i) && stack.length) stack[stack.length - 1] = true;
  }
  return false;
}
