// File effects of programs whose options decide what they read and write (effects.ts has the
// simple operand tools): recursive readers (`grep -r`, `rg`, `git grep`, `find -exec`, `tar c`,
// `zip -r`, `cp -r`, `rsync -r`, `diff -r`), write options of programs that usually only read
// (`sed -i`, `sort -o`, `find -fprint`, `curl -o`, `wget -O`, `tar -f` when creating), files sent
// elsewhere (`curl -d @F`, `-T F`), and commands that create links.

import { plainWord, type Word } from "./lexer.js";
import type { FileEffects, ShellPart } from "./types.js";
import { operandsOf } from "./operands.js";
import { awkRisk } from "./scripts.js";

type Handler = (part: ShellPart, args: Word[], out: FileEffects) => void;

/** A word's index in `part.words` (args are `part.words.slice(1)`). */
const at = (args: Word[], w: Word): number => args.indexOf(w) + 1;
const sub = (w: Word, value: string): Word => ({ ...w, value, tilde: value.startsWith("~") });
const has = (args: Word[], re: RegExp): boolean => args.some((w) => re.test(w.value));

/** Options written `-o FILE`, `-oFILE`, `--output FILE` or `--output=FILE`: each value, with the option's word. */
function optionValues(args: Word[], short: string, long: readonly string[]): Array<{ value: Word; option: Word }> {
  const out: Array<{ value: Word; option: Word }> = [];
  for (let i = 0; i < args.length; i++) {
    const v = args[i].value;
    if (v === "--") break;
    const eq = v.indexOf("=");
    const name = v.startsWith("--") ? (eq < 0 ? v.slice(2) : v.slice(2, eq)) : null;
    if (name !== null && long.includes(name)) {
      const value = eq < 0 ? args[i + 1] : sub(args[i], v.slice(eq + 1));
      if (value) out.push({ value, option: args[i] });
      if (eq < 0) i++;
    } else if (name === null && /^-[A-Za-z]/.test(v)) {
      for (let j = 1; j < v.length; j++) {
        if (!short.includes(v[j])) continue;
        const value = j + 1 < v.length ? sub(args[i], v.slice(j + 1)) : args[++i];
        if (value) out.push({ value, option: args[i - (j + 1 < v.length ? 0 : 1)] });
        break;
      }
    }
  }
  return out;
}

function edits(args: Word[], out: FileEffects, short: string, long: readonly string[], how: string): void {
  for (const { value, option } of optionValues(args, short, long)) if (value.value !== "-") out.edits.push({ word: value, how, option: at(args, option) }); // `-`: stdout
}

const RECURSIVE_GREP = /^-[A-Za-z]*[rR]|^--(?:recursive|dereference-recursive)$|^--directories=recurse$|^-d(?:recurse)?$/;

const HANDLERS: Record<string, Handler> = {
  dd(_part, args, out) {
    for (const w of args) {
      if (w.value.startsWith("of=")) out.writes.push(sub(w, w.value.slice(3)));
      if (w.value.startsWith("if=")) out.reads.push(sub(w, w.value.slice(3)));
    }
  },
  sed(_part, args, out) {
    const inPlace = args.find((w) => /^-[A-Za-z]*i|^--in-place(?:=|$)/.test(w.value) && !w.value.startsWith("--e"));
    const scriptGiven = optionValues(args, "ef", ["expression", "file"]).length > 0;
    for (const { value } of optionValues(args, "f", ["file"])) out.reads.push(value);
    const operands = operandsOf(args, "efl", ["expression", "file", "line-length"]);
    const files = scriptGiven ? operands : operands.slice(1);
    if (inPlace) out.edits.push(...files.map((word) => ({ word, how: "sed -i", option: at(args, inPlace) })));
    else out.reads.push(...files);
  },
  sort(_part, args, out) {
    edits(args, out, "o", ["output"], "sort -o");
  },
  find(_part, args, out) {
    const starts: Word[] = [];
    for (const w of args) {
      if (/^[-(!]/.test(w.value) && !["-H", "-L", "-P"].includes(w.value) && !/^-O[0-9]$/.test(w.value) && w.value !== "-D") break;
      if (!w.value.startsWith("-")) starts.push(w);
    }
    if (starts.length === 0) starts.push(plainWord("."));
    for (let i = 0; i < args.length; i++) {
      const v = args[i].value;
      if (/^-(?:fprint0?|fls|fprintf)$/.test(v) && args[i + 1]) out.edits.push({ word: args[i + 1], how: `find ${v}`, option: i + 1 });
      if (/^-(?:exec|execdir|ok|okdir)$/.test(v)) {
        for (const word of starts) out.trees.push({ word, how: `find ${v} (runs a command on every file it finds)`, gitignore: false });
        break;
      }
    }
  },
  grep(part, args, out) {
    if (!has(args, RECURSIVE_GREP)) return;
    const operands = operandsOf(args, "efmABCDd", ["regexp", "file", "max-count", "after-context", "before-context", "context", "devices", "include", "exclude", "exclude-dir", "label"]);
    const given = optionValues(args, "ef", ["regexp", "file"]).length > 0;
    const dirs = given ? operands : operands.slice(1);
    // `--include=GLOB` alone narrows what is read (an `--exclude` before it would widen it again:
    // grep then reads files no option matches); only patterns of plain characters and `*`.
    const includes = optionValues(args, "", ["include"]).map((o) => o.value);
    const narrowed = includes.length > 0 && !has(args, /^--exclude(?:=|$)|^--exclude-from/) && includes.every((w) => !w.expanded && /^[A-Za-z0-9_.*-]+$/.test(w.value));
    for (const word of dirs.length > 0 ? dirs : [plainWord(".")]) out.trees.push({ word, how: `${part.name} -r`, gitignore: false, ...(narrowed ? { names: includes.map((w) => w.value) } : {}) });
    out.reads = out.reads.filter((w) => !dirs.includes(w));
  },
  rg(part, args, out) {
    if (has(args, /^--(?:files|type-list|version|help)$/)) return;
    const operands = operandsOf(args, "efgtTmABCMjE", ["regexp", "file", "glob", "iglob", "type", "type-not", "max-count", "max-depth", "threads", "encoding", "replace", "type-add", "sort", "sortr", "pre"]);
    const given = optionValues(args, "ef", ["regexp", "file"]).length > 0;
    const dirs = given ? operands : operands.slice(1);
    const ignore = !has(args, /^-[A-Za-z]*u|^--no-ignore/);
    const skipHidden = !has(args, /^-[A-Za-z.]*\.|^-[A-Za-z]*u[A-Za-z]*u|^--hidden$/);
    for (const word of dirs.length > 0 ? dirs : [plainWord(".")]) out.trees.push({ word, how: part.name, gitignore: ignore, skipHidden });
    out.reads = out.reads.filter((w) => !dirs.includes(w));
  },
  diff(_part, args, out) {
    if (!has(args, /^-[A-Za-z]*r|^--recursive$/)) return;
    for (const word of operandsOf(args, "xXIFSDCUW", ["exclude", "exclude-from", "ignore-matching-lines", "label", "from-file", "to-file"])) out.trees.push({ word, how: "diff -r", gitignore: false });
  },
  cp(_part, args, out) {
    if (has(args, /^-[A-Za-z]*[sldP]|^--(?:symbolic-link|link|no-dereference|preserve=.*links)/)) out.links = "cp -s/-l/-d/-P creates or copies links";
    if (!has(args, /^-[A-Za-z]*[rRa]|^--(?:recursive|archive)$/)) return;
    out.links ??= "cp -r copies links as links";
    const operands = operandsOf(args, "St", ["suffix", "target-directory"]);
    const sources = has(args, /^-[A-Za-z]*t|^--target-directory/) ? operands : operands.slice(0, -1);
    for (const word of sources) out.trees.push({ word, how: "cp -r", gitignore: false });
  },
  tar(_part, args, out) {
    // Old style: the first word is option letters without a dash (`tar czf x.tgz dir`).
    const first = args[0]?.value ?? "";
    const words = /^[A-Za-z]+$/.test(first) ? [sub(args[0], `-${first}`), ...args.slice(1)] : args;
    const letters = words.filter((w) => /^-[A-Za-z]/.test(w.value)).map((w) => w.value.slice(1)).join("");
    const create = /[cru]/.test(letters) || has(words, /^--(?:create|append|update)$/);
    if (/x/.test(letters) || has(words, /^--(?:extract|get)$/)) {
      out.links = "tar -x can create links";
      // The files it writes are named inside the archive: judged where they land (bash-paths.ts).
      if (!/O/.test(letters) && !has(words, /^--to-(?:stdout|command)/)) {
        const archive = optionValues(words, "f", ["file"]).pop()?.value;
        const dest = optionValues(words, "C", ["directory"]).pop()?.value ?? plainWord(".");
        const strip = Number(optionValues(words, "", ["strip-components"]).pop()?.value.value ?? "0");
        if (archive === undefined || archive.value === "-" || has(words, /^--(?:transform|xform)|^-[A-Za-z]*P|^--absolute-names$/) || !Number.isInteger(strip)) out.unknownFiles = true;
        else out.copies.push({ sources: [archive], dest, how: "tar -x", recursive: false, into: true, archive: { kind: "tar", strip } });
      }
    }
    if (!create) return;
    edits(words, out, "f", ["file"], "tar -f");
    const operands = operandsOf(words, "fCbgHKLNTVX", ["file", "directory", "exclude", "files-from", "exclude-from", "transform", "format", "owner", "group", "mode", "mtime", "label"]);
    for (const word of operands) out.trees.push({ word, how: "tar", gitignore: false });
  },
  zip(_part, args, out) {
    const operands = operandsOf(args, "bnxiPtdO", ["exclude", "include", "password", "output-file"]);
    if (operands[0]) out.writes.push(operands[0]);
    const recursive = has(args, /^-[A-Za-z]*r|^--recurse-paths$/);
    readAll(operands.slice(1), recursive, "zip -r", out);
  },
  rsync(_part, args, out) {
    const operands = operandsOf(args, "eTfB", ["rsh", "rsync-path", "temp-dir", "filter", "exclude", "include", "exclude-from", "include-from", "files-from", "log-file", "write-batch", "read-batch", "backup-dir", "suffix", "chmod", "partial-dir"]);
    edits(args, out, "", ["log-file", "write-batch"], "rsync");
    remoteCopy(operands, has(args, /^-[A-Za-z]*[ra]|^--(?:recursive|archive)$/), "rsync", out);
  },
  scp(_part, args, out) {
    remoteCopy(operandsOf(args, "cFiJloPSDX"), has(args, /^-[A-Za-z]*r/), "scp -r", out);
  },
  curl(_part, args, out) {
    edits(args, out, "oDc", ["output", "dump-header", "cookie-jar", "trace", "trace-ascii", "stderr", "libcurl", "etag-save", "hsts", "alt-svc"], "curl");
    const remoteName = args.find((w) => /^-[A-Za-z]*O|^--remote-name(?:-all)?$/.test(w.value));
    if (remoteName) out.edits.push({ word: { ...plainWord(""), expanded: true, raw: "-O" }, how: "curl -O (a name the server chooses)", option: at(args, remoteName) });
    // Data sent from a file: `-d @F`, `-F name=@F` or `name=<F`, `--data-urlencode name@F`.
    for (const { value } of optionValues(args, "dF", ["data", "data-binary", "data-urlencode", "data-ascii", "form", "json"])) {
      const m = /^@(.+)$|=[@<]([^;]+)|^[^=]*@(.+)$/.exec(value.value);
      const file = m?.[1] ?? m?.[2] ?? m?.[3];
      if (file) out.reads.push(sub(value, file));
    }
    for (const { value } of optionValues(args, "TKE", ["upload-file", "config", "cert", "key"])) out.reads.push(value);
  },
  wget(_part, args, out) {
    edits(args, out, "OoaP", ["output-document", "output-file", "append-output", "directory-prefix"], "wget");
    for (const { value } of optionValues(args, "i", ["post-file", "body-file", "input-file"])) out.reads.push(value);
  },
  git(_part, args, out) {
    const subcommand = args.find((w, k) => !w.value.startsWith("-") && !/^-(?:C|c)$/.test(args[k - 1]?.value ?? ""))?.value;
    if (subcommand && GIT_CHECKOUTS.has(subcommand)) out.links = `git ${subcommand} can check out links`;
    if (subcommand) edits(args, out, subcommand === "archive" ? "o" : "", ["output"], `git ${subcommand} --output`);
    const k = args.findIndex((w) => w.value === subcommand);
    if (k >= 0) gitFiles(subcommand as string, args.slice(k + 1), out);
  },
};
HANDLERS.egrep = HANDLERS.fgrep = HANDLERS.grep;
// `xxd IN OUT` (and `xxd -r IN OUT`): the second operand is written. Every operand after the
// first counts, so a value option it does not know (`-cols 8`) errs towards a write.
HANDLERS.xxd = (_part, args, out) => {
  const written = operandsOf(args, "cglson", []).slice(1);
  out.reads = out.reads.filter((w) => !written.includes(w));
  for (const word of written) if (word.value !== "-") out.edits.push({ word, how: "xxd's output operand", option: at(args, word) });
};
// Archives name the files they write: `unzip a.zip` may plant `.mcp.json` or `.claude/…`.
HANDLERS.unzip = (_part, args, out) => {
  if (has(args, /^-[A-Za-z]*[lptvzZ]/)) return; // lists, tests or prints
  const operands = operandsOf(args, "dxPI", []);
  const dest = optionValues(args, "d", []).pop()?.value ?? plainWord(".");
  if (operands[0] === undefined || has(args, /^-[A-Za-z]*:/)) out.unknownFiles = true; // `-:` keeps `../`
  else out.copies.push({ sources: [operands[0]], dest, how: "unzip", recursive: false, into: true, archive: { kind: "zip", strip: 0 } });
};
HANDLERS["7z"] = HANDLERS["7za"] = HANDLERS.cpio = (_part, args, out) => {
  if (has(args, /^(?:x|e)$|^-[A-Za-z]*i|^--extract$/)) out.unknownFiles = true;
};
HANDLERS.tree = (_part, args, out) => edits(args, out, "o", ["output"], "tree -o");
HANDLERS.less = HANDLERS.more = (_part, args, out) => edits(args, out, "oO", ["log-file", "LOG-FILE"], "less -o (a log file)");
HANDLERS.zstdcat = (_part, args, out) => edits(args, out, "o", ["output"], "zstd -o");
HANDLERS.ag = HANDLERS.ack = (part, args, out) => {
  const dirs = operandsOf(args, "ABCGgm", ["after", "before", "context", "file-search-regex", "max-count", "depth", "type"]).slice(1);
  const skipHidden = !has(args, /^--hidden$|^-[A-Za-z]*u|^--(?:unrestricted|all-types)$/);
  for (const word of dirs.length > 0 ? dirs : [plainWord(".")]) out.trees.push({ word, how: part.name, gitignore: true, skipHidden });
  out.reads = out.reads.filter((w) => !dirs.includes(w));
};
// An awk program that reads or writes files by name (`getline < F`, `print > F`, a changed
// ARGV, a program file): those files are named only at run time.
for (const n of ["awk", "gawk", "mawk", "nawk"]) {
  HANDLERS[n] = (part, _args, out) => {
    const r = awkRisk(part.words);
    if (r && !/system\(\)|a pipe runs/.test(r.why)) out.unknownFiles = true;
  };
}
for (const z of ["gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "zstd", "unzstd"]) {
  HANDLERS[z] = (_part, args, out) => {
    const zstd = z.includes("zstd");
    if (zstd) edits(args, out, "o", ["output"], "zstd -o");
    if (!has(args, /^-[A-Za-z]*[ctl]|^--(?:stdout|to-stdout|test|list)$/)) out.writes.push(...operandsOf(args, zstd ? "oDM" : "S", zstd ? ["output", "output-dir-flat", "output-dir-mirror", "patch-from"] : ["suffix"]));
  };
}

// Options whose value is a file read (its lines may come back in error messages), and those whose
// file lists further files to read (`--files0-from`): those files are named only at run time.
const FILE_OPTIONS: Record<string, { short: string; long: string[]; lists?: string[] }> = {
  wc: { short: "", long: ["files0-from"] },
  du: { short: "X", long: ["files0-from", "exclude-from"] },
  sort: { short: "", long: ["files0-from", "random-source"], lists: ["files0-from"] },
  date: { short: "f", long: ["file"] },
  file: { short: "fm", long: ["files-from", "magic-file"], lists: ["files-from"] },
  diff: { short: "X", long: ["from-file", "to-file", "exclude-from"] },
  cmp: { short: "", long: [] },
  shuf: { short: "", long: ["random-source"] },
  shred: { short: "", long: ["random-source"] },
  tar: { short: "TX", long: ["files-from", "exclude-from"], lists: ["files-from"] },
  rsync: { short: "", long: ["files-from", "exclude-from", "include-from", "read-batch"], lists: ["files-from"] },
  patch: { short: "i", long: ["input"] },
};

function fileOptions(name: string, args: Word[], out: FileEffects): void {
  const spec = FILE_OPTIONS[name];
  if (spec === undefined) return;
  for (const { value, option } of optionValues(args, spec.short, spec.long)) {
    if (value.value !== "-") out.reads.push(value);
    const long = option.value.replace(/^--/, "").split("=")[0];
    if (spec.lists?.includes(long)) out.unknownFiles = true;
  }
}

/** `uniq IN OUT`, `iconv -o F`, `shuf -o F`, `split IN PREFIX`, `csplit -f PREFIX`: outputs. */
const OUTPUTS: Record<string, Handler> = {
  uniq(_part, args, out) {
    const operands = operandsOf(args, "fsw", ["skip-fields", "skip-chars", "check-chars"]);
    const written = operands[1];
    out.reads = out.reads.filter((w) => w !== written);
    if (written && written.value !== "-") out.edits.push({ word: written, how: "uniq's output operand", option: at(args, written) });
  },
  iconv: (_part, args, out) => edits(args, out, "o", ["output"], "iconv -o"),
  shuf: (_part, args, out) => edits(args, out, "o", ["output"], "shuf -o"),
  split(_part, args, out) {
    // Pieces are PREFIX + a suffix (`xaa`, `xab` … by default), in the prefix's folder.
    const operands = operandsOf(args, "abClnt", ["additional-suffix", "bytes", "line-bytes", "lines", "number", "separator", "suffix-length", "filter", "numeric-suffixes", "hex-suffixes"]);
    if (operands[0] && operands[0].value !== "-") out.reads.push(operands[0]);
    if (optionValues(args, "", ["filter"]).length > 0) return; // pieces go to the filter command
    const prefix = operands[1] ?? plainWord("x");
    out.edits.push({ word: sub(prefix, `${prefix.value}aa`), how: "split (its pieces)", option: operands[1] ? at(args, operands[1]) : undefined });
  },
  csplit(_part, args, out) {
    const operands = operandsOf(args, "fbn", ["prefix", "suffix-format", "digits"]);
    if (operands[0] && operands[0].value !== "-") out.reads.push(operands[0]);
    const given = optionValues(args, "f", ["prefix"])[0];
    const prefix = given?.value ?? plainWord("xx");
    out.edits.push({ word: sub(prefix, `${prefix.value}00`), how: "csplit (its pieces)", option: given ? at(args, given.option) : undefined });
  },
  patch(_part, args, out) {
    edits(args, out, "or", ["output", "reject-file"], "patch -o");
    // The files it changes are named inside the patch.
    if (!has(args, /^--dry-run$|^-[A-Za-z]*C/)) out.unknownFiles = true;
  },
  jq(_part, args, out) {
    // `--arg NAME V`, `--argjson`, `--slurpfile NAME FILE`, `--rawfile NAME FILE` take two words.
    const operands: Word[] = [];
    let filterGiven = false;
    let argsMode = false;
    for (let i = 0; i < args.length; i++) {
      const v = args[i].value;
      if (v === "--") {
        operands.push(...args.slice(i + 1));
        break;
      }
      if (/^--(?:arg|argjson|slurpfile|rawfile)$/.test(v)) {
        if (/file$/.test(v) && args[i + 2]) out.reads.push(args[i + 2]);
        i += 2;
      } else if (/^--(?:args|jsonargs)$/.test(v)) argsMode = true;
      else if (/^--(?:from-file|indent|tab|library-path)$/.test(v) || /^-[A-Za-z]*[fL]$/.test(v)) {
        if (/f$|from-file/.test(v) && args[i + 1]) {
          out.reads.push(args[i + 1]);
          filterGiven = true;
        }
        if (v !== "--tab") i++;
      } else if (!v.startsWith("-") || v === "-") operands.push(args[i]);
    }
    const filter = filterGiven ? null : operands[0];
    if (filter && /\b(?:import|include)\b/.test(filter.value)) out.unknownFiles = true; // modules and data files
    const files = filterGiven ? operands : operands.slice(1);
    if (!argsMode) out.reads.push(...files.filter((w) => w.value !== "-"));
  },
};

/** Files git reads outside what it tracks: `diff --no-index` (also implied when a path lies
 *  outside the repository, so every operand of `git diff` counts as a read), `grep --no-index`
 *  and `--untracked`, `blame --contents`, `--pathspec-from-file`, and patches it applies. */
function gitFiles(subcommand: string, args: Word[], out: FileEffects): void {
  for (const { value } of optionValues(args, "", ["pathspec-from-file"])) if (value.value !== "-") out.reads.push(value);
  const operands = operandsOf(args, "", []);
  switch (subcommand) {
    case "diff":
      out.reads.push(...operands);
      break;
    case "grep": {
      const noIndex = has(args, /^--no-index$/);
      const all = noIndex || (has(args, /^--untracked$/) && has(args, /^--no-exclude-standard$/));
      for (const { value } of optionValues(args, "f", ["file"])) if (value.value !== "-") out.reads.push(value);
      const dashdash = args.findIndex((w) => w.value === "--");
      const paths = dashdash >= 0 ? args.slice(dashdash + 1) : noIndex ? operandsOf(args, "efABCm", ["regexp", "file", "after-context", "before-context", "context", "max-count", "max-depth", "threads", "open-files-in-pager"]).slice(optionValues(args, "ef", ["regexp", "file"]).length > 0 ? 0 : 1) : [];
      for (const word of noIndex && paths.length > 0 ? paths : [plainWord(".")]) out.trees.push({ word, how: noIndex ? "git grep --no-index" : "git grep", gitignore: !all });
      break;
    }
    case "blame":
      for (const { value } of optionValues(args, "S", ["contents", "ignore-revs-file"])) if (value.value !== "-") out.reads.push(value);
      break;
    case "apply":
      if (!has(args, /^--(?:check|stat|numstat|summary)$/)) out.unknownFiles = true;
      out.reads.push(...operands.filter((w) => w.value !== "-"));
      break;
    case "am":
      out.unknownFiles = true;
      break;
    case "checkout":
    case "restore": {
      // `git checkout [REV] -- PATH…`, `git checkout REV PATH…`, `git restore [--source=REV] PATH…`:
      // the paths are written with what the commit (or index) holds below them.
      const dashdash = args.findIndex((w) => w.value === "--");
      const pre = operandsOf(dashdash < 0 ? args : args.slice(0, dashdash), subcommand === "restore" ? "s" : "bB", ["source", "conflict", "orphan", "pathspec-from-file"]);
      const paths = dashdash >= 0 ? args.slice(dashdash + 1) : subcommand === "restore" ? pre : pre.slice(1);
      for (const word of paths) out.writesBelow.push({ word, how: `git ${subcommand}` });
      break;
    }
  }
}

const GIT_CHECKOUTS = new Set(["checkout", "switch", "restore", "reset", "merge", "pull", "rebase", "cherry-pick", "revert", "stash", "apply", "am", "clone", "worktree", "submodule", "checkout-index", "read-tree"]);

/** rsync/scp: local operands (no `host:`); the last is the destination. */
function remoteCopy(operands: Word[], recursive: boolean, how: string, out: FileEffects): void {
  const local = (w: Word): boolean => !/^[^/]*:/.test(w.value);
  const dest = operands[operands.length - 1];
  if (operands.length >= 2 && local(dest)) {
    out.writes.push(dest);
    const sources = operands.slice(0, -1).filter(local);
    if (sources.length > 0) out.copies.push({ sources, dest, how, recursive, into: operands.length > 2 || how === "rsync", contents: how === "rsync" });
  }
  readAll(operands.slice(0, -1).filter(local), recursive, how, out);
}

function readAll(words: Word[], recursive: boolean, how: string, out: FileEffects): void {
  if (recursive) out.trees.push(...words.map((word) => ({ word, how, gitignore: false })));
  else out.reads.push(...words);
}

/** Adds the effects of a program listed here; false when it is not listed. */
export function programEffects(part: ShellPart, out: FileEffects): boolean {
  const args = part.words.slice(1);
  const handler = HANDLERS[part.name] ?? OUTPUTS[part.name];
  handler?.(part, args, out);
  fileOptions(part.name, args, out);
  return handler !== undefined || FILE_OPTIONS[part.name] !== undefined;
}
