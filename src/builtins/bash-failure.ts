// Why a command failed, in one line: what a person needs on the `✗ Bash npm test → exit 1` line
// to act without opening the output — the failing test's name with its assertion, or the error.
// The whole output stays one `/output` (or Ctrl-O) away; this line only points at the cause.
//
// Each reader knows one tool's way of reporting a failure (pytest's short summary, go test's
// `--- FAIL:`, cargo's panic, jest's `●`, vitest's `FAIL … > …`, node --test in TAP and in its
// spec reporter, tsc, eslint); the first that finds something answers. Otherwise: the first
// line that names an error (`Error: …`, `fatal error: …`, the last line of a Python
// traceback), else the last line that is not noise. Noise is what every failure prints and
// none explains: npm's `> pkg@1.0.0 test` banner and its `npm error` epilogue, make's
// `*** [target] Error 1`, cargo's `error: test failed, to rerun…`, go's bare `FAIL` lines,
// runtime warnings, stack frames, summaries that only count.

/** The reason is cut to this many characters (the line it joins is one line on the screen). */
export const REASON_MAX = 160;

type Reader = (lines: readonly string[]) => string | undefined;

/** The reason a failed command's output gives, or undefined when it has no line worth showing. */
export function failureReason(output: string): string | undefined {
  const lines = output
    .replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, "")
    .split(/\r?\n/)
    .map((l) => l.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "").trimEnd());
  for (const read of READERS) {
    const found = read(lines);
    if (found) return cut(found);
  }
  return undefined;
}

function cut(s: string): string {
  const one = s.replace(/\s+/g, " ").trim();
  return one.length > REASON_MAX ? `${one.slice(0, REASON_MAX - 1)}…` : one;
}

/** The first non-blank line after index `i` (and its index), within `within` lines. */
function nextText(lines: readonly string[], i: number, within = 6): { text: string; at: number } | undefined {
  for (let j = i + 1; j < lines.length && j <= i + within; j++) if (lines[j].trim()) return { text: lines[j].trim(), at: j };
  return undefined;
}

/** An assertion's message, with its next line when the first only announces it ("…equal:"). */
function message(lines: readonly string[], i: number): string | undefined {
  const first = nextText(lines, i);
  if (!first) return undefined;
  if (!first.text.endsWith(":")) return first.text;
  const second = nextText(lines, first.at);
  return second && !isFrame(second.text) ? `${first.text} ${second.text}` : first.text;
}

function isFrame(l: string): boolean {
  return /^\s*at\s/.test(l) || /^\s*\d+:\s+\S+::/.test(l);
}

const pytest: Reader = (lines) => {
  const summary = lines.find((l) => /^(FAILED|ERROR) \S+/.test(l));
  if (summary) return summary.replace(/^(FAILED|ERROR) /, "");
  const e = lines.findIndex((l) => /^E\s+\S/.test(l));
  return e >= 0 ? lines[e].replace(/^E\s+/, "") : undefined;
};

const goTest: Reader = (lines) => {
  const i = lines.findIndex((l) => /^\s*--- FAIL: \S+/.test(l));
  if (i < 0) return undefined;
  const name = lines[i].trim().replace(/^--- FAIL: (\S+).*$/, "$1");
  const next = nextText(lines, i, 3);
  return next && /^\S+\.go:\d+: /.test(next.text) ? `${name}: ${next.text}` : name;
};

const cargo: Reader = (lines) => {
  const i = lines.findIndex((l) => /^---- \S+ stdout ----$/.test(l));
  if (i < 0) return undefined;
  const name = lines[i].replace(/^---- (\S+) stdout ----$/, "$1");
  const p = lines.findIndex((l, k) => k > i && /panicked at /.test(l));
  if (p < 0) return name;
  const what = [1, 2, 3].map((d) => lines[p + d] ?? "").filter((l) => l.trim() && !/^(stack backtrace|note):?/.test(l.trim()));
  return `${name}: ${what.map((l) => l.trim()).join(", ")}`;
};

const jest: Reader = (lines) => {
  const i = lines.findIndex((l) => /^\s*● (?!Test suite failed to run)\S/.test(l));
  if (i < 0) return undefined;
  const name = lines[i].trim().replace(/^● /, "");
  const msg = nextText(lines, i);
  if (!msg) return name;
  const told = lines.slice(msg.at + 1, msg.at + 6).map((l) => l.trim()).filter((l) => /^(Expected|Received)( value)?:/.test(l));
  return `${name}: ${msg.text.replace(/\s*\/\/ Object\.is equality$/, "")}${told.length ? ` — ${told.join(", ")}` : ""}`;
};

const vitest: Reader = (lines) => {
  const i = lines.findIndex((l) => /^\s*FAIL\s+\S.* > /.test(l));
  if (i < 0) return undefined;
  const name = lines[i].trim().replace(/^FAIL\s+/, "");
  const msg = nextText(lines, i);
  return msg ? `${name}: ${msg.text.replace(/\s*\/\/ Object\.is equality$/, "")}` : name;
};

/** node --test's TAP (`not ok 2 - name`, then `error: |-` and the message, or `error: 'msg'`). */
const nodeTap: Reader = (lines) => {
  const i = lines.findIndex((l) => /^\s*not ok \d+ - /.test(l));
  if (i < 0) return undefined;
  const name = lines[i].replace(/^\s*not ok \d+ - /, "").replace(/\s+#.*$/, "");
  const e = lines.findIndex((l, k) => k > i && k < i + 12 && /^\s*error: /.test(l));
  if (e < 0) return name;
  const inline = lines[e].trim().replace(/^error: /, "");
  if (!/^\|/.test(inline)) return `${name}: ${inline.replace(/^'(.*)'$/, "$1")}`;
  const body = lines.slice(e + 1, e + 8).map((l) => l.trim()).filter(Boolean);
  const shown = body[0]?.endsWith(":") && body[1] ? `${body[0]} ${body[1]}` : body[0];
  return shown ? `${name}: ${shown}` : name;
};

/** node --test's spec reporter: `✖ name (1.2ms)` and the error under it. */
const nodeSpec: Reader = (lines) => {
  const from = Math.max(0, lines.findIndex((l) => /^✖ failing tests:/.test(l)));
  const i = lines.findIndex((l, k) => k >= from && /^\s*✖ (?!failing tests:)\S.*\(\d[\d.]*m?s\)$/.test(l));
  if (i < 0) return undefined;
  const name = lines[i].trim().replace(/^✖ /, "").replace(/\s*\(\d[\d.]*m?s\)$/, "");
  const msg = message(lines, i);
  return msg && !isFrame(msg) ? `${name}: ${msg.replace(/^AssertionError \[ERR_ASSERTION\]: /, "")}` : name;
};

/** tsc's first error (plain `a.ts(1,7): error TS…` or pretty `a.ts:1:7 - error TS…`), and how many more. */
const tsc: Reader = (lines) => {
  const errs = lines.filter((l) => /^\S+(\(\d+,\d+\):|:\d+:\d+ -) error TS\d+: /.test(l));
  if (errs.length === 0) return undefined;
  return `${errs[0]}${errs.length > 1 ? ` (and ${errs.length - 1} more)` : ""}`;
};

/** eslint's stylish report: the file, then `  1:7  error  message  rule`. */
const eslint: Reader = (lines) => {
  const i = lines.findIndex((l) => /^\s+\d+:\d+\s+error\s+\S/.test(l));
  if (i < 0) return undefined;
  let file = "";
  for (let k = i - 1; k >= 0 && !file; k--) if (/^\S/.test(lines[k]) && !/^\(node:\d+\)/.test(lines[k])) file = lines[k].trim();
  const [, pos, msg, rule] = /^\s+(\d+:\d+)\s+error\s+(.*?)(?:\s{2,}(\S+))?$/.exec(lines[i]) ?? [];
  const problems = lines.find((l) => /^✖ \d+ problems? /.test(l));
  const where = file ? `${short(file)}:${pos}` : pos;
  return `${where} ${msg}${rule ? ` (${rule})` : ""}${problems && !/^✖ 1 problem /.test(problems) ? ` — ${problems.replace(/^✖ /, "")}` : ""}`;
};

function short(path: string): string {
  const parts = path.split("/");
  return path.length > 40 && parts.length > 2 ? `…/${parts.slice(-2).join("/")}` : path;
}

/** What every failure prints and none explains. */
const NOISE: readonly RegExp[] = [
  /^> \S+@\S+ \S+/, // npm's banner (`> tinyshop@1.0.0 test`)
  /^npm (ERR!|error|warn)/,
  /^make(\[\d+\])?: \*\*\* /,
  /^error: test failed, to rerun/,
  /^(FAIL|ok|PASS)(\s+\S+\s+[\d.]+s)?$/, // go's package lines
  /^exit status \d+$/,
  /^\(node:\d+\) /,
  /^\(Use `node --trace-/,
  /^Node\.js v\d/,
  /^\s*at\s/,
  /^\s*\^+\s*$/,
  /^compilation terminated\.$/,
  /^Ran all test suites/,
  /^\s*(Test Suites|Tests|Snapshots|Time|Duration|Start at|Test Files):/,
  /^[#ℹ] (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms)\b/,
  /^\d+\.\.\d+$/,
  /^[=_-]{3,}/,
  /^\[exit code \d+\]$/,
];

const noise = (l: string): boolean => !l.trim() || NOISE.some((re) => re.test(l.trim()) || re.test(l));

/** npm's banner is two lines: `> pkg@1.0.0 test` and the script it runs (`> node --test`). */
function withoutBanner(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (/^> \S+@\S+ \S+/.test(lines[i].trim())) {
      if (/^> /.test(lines[i + 1]?.trim() ?? "")) i++;
      continue;
    }
    out.push(lines[i]);
  }
  return out;
}

/** A line that names an error: `Error: …`, `TypeError: …`, `fatal error: …`, `error[E0308]: …`. */
const namedError: Reader = (lines) => {
  const kept = withoutBanner(lines).filter((l) => !noise(l));
  // A Python traceback ends with the exception: the last such line is the one that was raised.
  if (kept.some((l) => /^Traceback \(most recent call last\)/.test(l))) {
    const last = [...kept].reverse().find((l) => /^[\w.]+(Error|Exception|Interrupt|Exit)\b.*/.test(l));
    if (last) return last;
  }
  return kept.find((l) => /^\s*([\w.]*(Error|Exception)(\s\[\w+\])?|(fatal )?error(\[\w+\])?|fatal|panic|FATAL|ERROR)\b:?/.test(l.replace(/^\S+: (?=(fatal )?error)/, "")) || /\b(fatal )?error: /.test(l))?.trim();
};

const lastLine: Reader = (lines) => [...withoutBanner(lines)].reverse().find((l) => !noise(l))?.trim();

const READERS: readonly Reader[] = [pytest, goTest, cargo, jest, vitest, nodeTap, nodeSpec, tsc, eslint, namedError, lastLine];
