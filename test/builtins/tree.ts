// A project tree for Glob and Grep: nested .gitignore files with negation, folder-only and
// anchored rules, hidden files, a .git folder, a binary file, CRLF lines, names whose sort
// order differs between byte-wise and natural ordering. Written at test time (not committed
// as a fixture: the repository's own .gitignore would swallow parts of it).
import { writeTree } from "./helpers.js";

export const TREE: Record<string, string | Buffer> = {
  ".gitignore": "node_modules/\n*.log\n!keep.log\n/build\nout/\ndocs/*.tmp\n# a comment\n\\#literal.txt\n",
  ".git/config": "[core] needle = true\n",
  ".git/HEAD": "ref: refs/heads/main\n",
  ".env": "NEEDLE=1\n",
  ".hidden/secret.ts": "export const needle = 'hidden';\n",
  "#literal.txt": "needle in a hash-named file\n",
  "app.log": "needle in an ignored log\n",
  "keep.log": "needle in a kept log\n",
  "build/x.ts": "const needle = 'ignored build';\n",
  "src/build/y.ts": "const needle = 'not ignored: /build is anchored';\n",
  "src/out/z.ts": "const needle = 'ignored: out/ anywhere';\n",
  "out": "needle: a file named out is not a folder\n",
  "docs/a.tmp": "needle tmp ignored\n",
  "docs/sub/b.tmp": "needle tmp kept (docs/*.tmp is anchored)\n",
  "docs/readme.md": "# Readme\n\nThe needle is documented here.\nAnother line.\n",
  "node_modules/pkg/index.js": "module.exports = 'needle';\n",
  "src/a.ts": [
    "import { x } from './x';",
    "",
    "export function findNeedle(hay: string): number {",
    "  return hay.indexOf('needle');",
    "}",
    "",
    "// line 7",
    "// line 8",
    "// line 9",
    "export const NEEDLE = 'needle';",
    "const more = 1; // needle",
    "  more stuff",
    "",
  ].join("\n"),
  "src/a/x.ts": "export const x = 'needle';\n",
  "src/b.js": "const needle = require('needle');\nmodule.exports = { needle };\n",
  "src/deep/.gitignore": "generated.ts\n!important.log\n",
  "src/deep/c.ts": "// needle\nneedle\n    more needle\n",
  "src/deep/generated.ts": "needle generated\n",
  "src/deep/important.log": "needle important log\n",
  "src/util/A.ts": "needle upper\n",
  "src/util/_b.ts": "needle underscore\n",
  "src/util/a.ts": "needle lower 123\n",
  "bin/data.bin": Buffer.concat([Buffer.from("needle"), Buffer.from([0, 1, 2, 3]), Buffer.from("needle\n")]),
  "crlf.txt": "needle one\r\nplain\r\nneedle two\r\n",
  "unicode.txt": "naïve needle — “quoted” 日本語 needle\nCAFÉ needle\n",
  "noeol.txt": "last needle",
};

export function writeProjectTree(root: string): void {
  writeTree(root, TREE);
}
