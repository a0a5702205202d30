// Grep's `type` filter: common ripgrep file types and their globs (matched against file names).
// Both search paths use this table — rg gets it through --type-add — so a type means the same
// files whichever path runs, whatever version of rg is installed.

export const FILE_TYPES: Readonly<Record<string, readonly string[]>> = {
  c: ["*.[chH]", "*.[chH].in", "*.cats"],
  cpp: ["*.[ChH]", "*.[ChH].in", "*.[ch]pp", "*.[ch]pp.in", "*.[ch]xx", "*.[ch]xx.in", "*.cc", "*.cc.in", "*.hh", "*.hh.in", "*.inl"],
  cs: ["*.cs"],
  css: ["*.css", "*.scss"],
  dart: ["*.dart"],
  docker: ["*Dockerfile*"],
  elixir: ["*.eex", "*.ex", "*.exs"],
  go: ["*.go"],
  html: ["*.ejs", "*.htm", "*.html"],
  java: ["*.java", "*.jsp", "*.jspx", "*.properties"],
  js: ["*.js", "*.jsx", "*.vue", "*.mjs", "*.cjs"],
  json: ["*.json", "composer.lock"],
  jsonl: ["*.jsonl"],
  kotlin: ["*.kt", "*.kts"],
  lua: ["*.lua"],
  make: ["*.mak", "*.mk", "[Gg][Nn][Uu]makefile", "[Mm]akefile", "[Mm]akefile.am", "[Mm]akefile.in"],
  md: ["*.markdown", "*.md", "*.mdown", "*.mkdn", "*.mdx"],
  php: ["*.php", "*.php3", "*.php4", "*.php5", "*.phtml"],
  py: ["*.py", "*.pyi"],
  ruby: ["*.gemspec", "*.rb", "*.rbw", ".irbrc", "Gemfile", "Rakefile", "config.ru"],
  rust: ["*.rs"],
  scala: ["*.sbt", "*.scala"],
  sh: ["*.bash", "*.bashrc", "*.csh", "*.cshrc", "*.ksh", "*.kshrc", "*.sh", "*.tcsh", "*.zsh", ".bash_profile", ".bashrc", ".profile", ".zshrc", ".zprofile", ".zshenv"],
  sql: ["*.psql", "*.sql"],
  swift: ["*.swift"],
  toml: ["*.toml", "Cargo.lock"],
  ts: ["*.ts", "*.tsx", "*.mts", "*.cts"],
  txt: ["*.txt"],
  xml: ["*.dtd", "*.rng", "*.sch", "*.xhtml", "*.xjb", "*.xml", "*.xml.dist", "*.xsd", "*.xsl", "*.xslt"],
  yaml: ["*.yaml", "*.yml"],
};

/** Names users (and models) also use for the same types. */
const ALIASES: Record<string, string> = {
  javascript: "js", typescript: "ts", python: "py", rs: "rust", golang: "go", markdown: "md",
  yml: "yaml", shell: "sh", bash: "sh", csharp: "cs", rb: "ruby", "c++": "cpp", kt: "kotlin",
};

export function typeGlobs(name: string): readonly string[] | null {
  const key = name.toLowerCase();
  return FILE_TYPES[key] ?? FILE_TYPES[ALIASES[key] ?? ""] ?? null;
}
