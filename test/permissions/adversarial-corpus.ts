// The adversarial shell corpus: families of command lines an attacker would try, each under the
// family's rules, run by real bash in test/permissions/bash-differential.test.ts. A line the gate
// allows must do only what its allow rule names: no marker program runs (`pwned`, `touch`, `rm`,
// `curl` are stubs that record themselves), the victim file and everything outside the project
// stay as they were, no secret is printed, and — unless the family lets file commands change the
// project — the project does not change either. Lines need not be dangerous to be here: the
// careful ones (a quoted here-document, a literal `'$(pwned)'`) must stay allowed and harmless.
//
// Paths are relative to the project (`ws/`), whose neighbour is `../outside`; HOME is `../home`.

/** Read-only tools and a test runner: what most projects allow. */
const READERS = [
  "Bash(echo:*)", "Bash(printf:*)", "Bash(ls:*)", "Bash(cat:*)", "Bash(head:*)", "Bash(grep:*)", "Bash(rg:*)", "Bash(sed:*)",
  "Bash(awk:*)", "Bash(find:*)", "Bash(sort:*)", "Bash(base64:*)", "Bash(xxd:*)", "Bash(diff:*)", "Bash(wc:*)",
  "Bash(git status:*)", "Bash(git log:*)", "Bash(git diff:*)", "Bash(npm test:*)", "Bash(make test:*)", "Bash(tar -tf:*)",
];
/** Builtins a person might allow because they "only set things". */
const SHELL_STATE = [
  "Bash(declare:*)", "Bash(typeset:*)", "Bash(export:*)", "Bash(read:*)", "Bash(mapfile:*)", "Bash(readarray:*)", "Bash(unset:*)",
  "Bash(let:*)", "Bash(set:*)", "Bash(shopt:*)", "Bash(trap:*)", "Bash(alias:*)", "Bash(hash:*)", "Bash(enable:*)", "Bash(compgen:*)",
  "Bash(wait:*)", "Bash(env:*)", "Bash(nice:*)", "Bash(nohup:*)", "Bash(timeout:*)", "Bash(time:*)", "Bash(xargs:*)", "Bash(stdbuf:*)",
];
const DENY = ["Bash(rm:*)", "Bash(touch:*)", "Bash(curl:*)", "Bash(pwned:*)", "Bash(git push:*)"];

export interface Family {
  name: string;
  allow: string[];
  /** File commands are allowed here, so the project may change (not outside it, not protected files). */
  projectMayChange?: boolean;
  lines: string[];
}

export const CORPUS_DENY = DENY;

export const FAMILIES: Family[] = [
  {
    name: "substitution contexts bash evaluates inside words",
    allow: [...READERS, ...SHELL_STATE],
    lines: [
      "test -v 'a[$(pwned)]'", "[ -v 'a[$(pwned)]' ]", "[[ -v 'a[$(pwned)]' ]]", 'test -v "a[\\$(pwned)]"', "[[ -v a\\[\\$\\(pwned\\)\\] ]]",
      "test ! -v 'a[$(pwned)]'", "[ -n x -a -v 'a[$(pwned)]' ]", "[[ -v x || -v 'a[`pwned`]' ]]", "[[ 'a[$(pwned)]' -eq 1 ]]",
      "[[ x -lt 'a[$(pwned)]' ]]", "(( 'a[$(pwned)]' ))", "echo $(( a[$(pwned)] ))", "echo $[ a[$(pwned)] ]", "let 'a[$(pwned)]=1'",
      "let x='a[$(pwned)]'", "declare -i x='a[$(pwned)]'", "declare -i x; x='a[$(pwned)]'", "typeset -i x='a[$(pwned)]'",
      "declare 'a[$(pwned)]=1'", "declare -a 'a=([$(pwned)]=1)'", "declare -n r='a[$(pwned)]'; echo $r", "printf -v 'a[$(pwned)]' x",
      "printf -v \"a[\\$(pwned)]\" %s x", "read 'a[$(pwned)]' <<< x", "read -r 'a[$(pwned)]' < README.md", "mapfile -C pwned -c 1 arr < README.md",
      "readarray -C pwned -c 1 arr < README.md", "declare -a a; unset 'a[$(pwned)]'", "compgen -C pwned x", "TEST='a[$(pwned)]'; echo ${a[TEST]}",
      "DEBUG='a[$(pwned)]'; echo ${HOME:DEBUG}", "DEBUG='a[$(pwned)]'; echo ${HOME:0:DEBUG}", "DEBUG='a[$(pwned)]'; echo ${!DEBUG}",
      "DEBUG='$(pwned)'; echo ${DEBUG@P}", "TEST='a[$(pwned)]'; echo \"${a[TEST]:-x}\"", "TEST='a[$(pwned)]'; [[ TEST -eq 1 ]]",
      "TEST='a[$(pwned)]'; [[ $TEST -gt 0 ]]", "TEST='a[$(pwned)]'; [[ -v $TEST ]]", "TEST['$(pwned)']=1", "TEST[$(pwned)]=1",
      "DEBUG='a[$(pwned)]'; for ((i=DEBUG;0;)); do :; done", "echo ${HOME:$(pwned)}", "echo ${HOME/$(pwned)/}", "echo ${HOME^^[$(pwned)]}",
      "TEST=x; echo ${TEST:=$(pwned)}", "sleep 0 & wait -n -p 'a[$(pwned)]'", "declare -a a=([TEST]=1)",
      // careful, not paranoid: these read nothing bash evaluates
      "test -v HOME", "[[ -v HOME ]]", "echo ${HOME:1:2} ${#HOME} ${HOME:-d} ${HOME#/}", "test x -eq 1", "[ 'a[$(pwned)]' -gt 1 ]",
    ],
  },
  {
    name: "redirections under a read-only allow",
    allow: READERS,
    lines: [
      "echo a > x.txt", "echo a >> victim.txt", "printf a > x.txt", "ls 2> x.txt", "ls 2>> victim.txt", "echo a >| x.txt", "ls &> x.txt",
      "ls &>> x.txt", "ls <> x.txt", "ls 3> x.txt", "ls 9>> victim.txt", "ls {fd}> x.txt", "ls {FD}>x.txt", "echo a 1>x.txt", "echo a >& x.txt",
      "echo a >&x.txt", ": > victim.txt", "> victim.txt", "true > victim.txt", "echo a > x.txt 2>&1", "echo a >/dev/null > x.txt",
      "exec > x.txt", "exec 3> x.txt", "exec 3<> victim.txt; echo a >&3", "echo a | tee x.txt", "echo a | tee -a victim.txt",
      "echo a > >(cat > x.txt)", "ls > ../outside/x", "echo a > .git/hooks/pre-commit", "echo a > .deepcode/settings.json",
      "echo a >\"x.txt\"", "echo a > 'x'.txt", "echo a > x\\.txt", "echo a > $'x.txt'", "cat README.md > x.txt", "cat < README.md > x.txt",
      "grep a README.md > x.txt", "sed -n 1p README.md > x.txt", "echo a >> ~/x", "if true; then echo a; fi > x.txt", "{ echo a; } > x.txt",
      "(echo a) > x.txt", "for i in 1; do echo a; done > x.txt", "echo a > x.txt &", "echo a > victim.txt; echo b",
      // free: the terminal, /dev/null and descriptor duplications
      "echo a > /dev/null", "ls 2>/dev/null", "echo a >&2", "ls > /dev/null 2>&1", "echo a 1>&2", "ls 2>&1 | sort",
    ],
  },
  {
    name: "wrappers",
    allow: [...READERS, ...SHELL_STATE],
    lines: [
      "env pwned", "env -i pwned", "env -u HOME pwned", "env FOO=1 pwned", "env -- pwned", "nice pwned", "nice -n 1 pwned", "nohup pwned",
      "timeout 5 pwned", "time pwned", "time -p pwned", "command pwned", "builtin eval pwned", "exec pwned", "xargs pwned < README.md",
      "echo x | xargs pwned", "echo x | xargs -I{} pwned {}", "echo pwned | xargs sh -c", "find . -maxdepth 0 -exec pwned \\;",
      "find . -maxdepth 0 -execdir pwned {} +", "stdbuf -o0 pwned", "setsid pwned", "watch -n 1 -e pwned", "bash -c pwned", "sh -c 'pwned'",
      "bash -lc pwned", "eval pwned", "eval 'pwned'", "echo pwned | bash", "bash <<< pwned", "bash -s <<< pwned", "sh < <(echo pwned)",
      ". <(echo pwned)", "source /dev/stdin <<< pwned", "coproc pwned", "echo x | while read l; do pwned; done", "env -S pwned",
      "env --split-string='pwned'", "env 'BASH_FUNC_ls%%=() { pwned; }' bash -c ls", "echo README.md | xargs cat",
    ],
  },
  {
    name: "interpreters given code",
    allow: [...READERS, "Bash(node:*)", "Bash(python3:*)", "Bash(perl:*)"],
    lines: [
      "node -e \"require('child_process').execSync('pwned')\"", "node --eval \"require('child_process').execSync('pwned')\"",
      "node -p \"require('child_process').execSync('pwned')\"", "node --print \"require('child_process').execSync('pwned')+''\"",
      "node -r ./lib/evil.js scripts/ok.js", "node --require=./lib/evil.js scripts/ok.js", "node --import ./lib/evil.mjs scripts/ok.js",
      "node --loader ./lib/evil.mjs scripts/ok.js", "node --experimental-loader=./lib/evil.mjs scripts/ok.js", "node --env-file=evil.env scripts/ok.js",
      "node - <<< \"require('child_process').execSync('pwned')\"", "echo \"require('child_process').execSync('pwned')\" | node",
      "node --title x -e \"require('child_process').execSync('pwned')\"", "node -pe \"require('child_process').execSync('pwned')+''\"",
      "python3 -c \"import os; os.system('pwned')\"", "python3 -Bc \"import os; os.system('pwned')\"", "python3 -m evilmod",
      "echo \"import os; os.system('pwned')\" | python3", "python3 - <<< \"import os; os.system('pwned')\"", "perl -e 'system(\"pwned\")'",
      "perl -ne 'system(\"pwned\")' README.md", "perl -I. -MEvil -e 1", "NODE_OPTIONS='--require ./lib/evil.js' node scripts/ok.js",
      // careful: a script of the project, with options after it (they are the script's)
      "node scripts/ok.js -e x", "python3 scripts/ok.py -c config",
    ],
  },
  {
    name: "options of allowed programs that run code",
    allow: [...READERS, "Bash(git:*)"],
    lines: [
      "npm test --node-options='--require ./lib/evil.js'", "npm test --node-options=--require=./lib/evil.js", "npm test --script-shell=./evil.sh",
      "npm test --script-shell ./evil.sh", "npm test --prefix other", "npm test --userconfig=evil.npmrc", "npm test --globalconfig=evil.npmrc",
      "npm_config_script_shell=./evil.sh npm test", "NODE_OPTIONS='--require ./lib/evil.js' npm test", "git -c core.pager=pwned log -1",
      "git -c core.fsmonitor=pwned status", "git -c alias.st='!pwned' st", "git config core.pager pwned", "git config --local core.fsmonitor pwned",
      "git ls-remote --upload-pack=pwned .", "git fetch --upload-pack=pwned .", "git -C ../outside/repo status", "git --git-dir=../outside/repo/.git status",
      "git grep --open-files-in-pager=pwned readme", "GIT_EXTERNAL_DIFF=pwned git diff", "GIT_PAGER=pwned git log",
      "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0=pwned git log", "make test -f other.mk", "make test --file=other.mk",
      "make test -C other", "make test SHELL=./evil.sh", "make test --eval='X:=$(shell pwned)'", "sed -n '1e pwned' README.md",
      "sed '1e pwned' README.md", "sed 's/.*/pwned/e' README.md", "sed -n 's/.*/x/w x.txt' README.md", "sed 'w x.txt' README.md",
      "sed -i 's/keep/lost/' victim.txt", "sed -i.bak 's/keep/lost/' victim.txt", "sed --in-place 's/keep/lost/' victim.txt", "sed -f evil.sed README.md",
      "sed 'r .env' README.md", "sed '1R .env' README.md", "sed -e 's/a/b/' -e '1e pwned' README.md", "sed -n '/readme/{e pwned\n}' README.md",
      "awk 'BEGIN{system(\"pwned\")}'", "awk 'BEGIN{print \"x\" > \"x.txt\"}'", "awk 'BEGIN{\"pwned\" | getline}'", "awk 'BEGIN{print | \"pwned\"}'",
      "awk 'BEGIN{while((getline l < \".env\")>0) print l}'", "awk -f evil.awk", "find . -maxdepth 1 -name victim.txt -delete",
      "find . -name README.md -fprint x.txt", "sort -o x.txt README.md", "sort --output=victim.txt README.md", "tar -tf a.tar -I pwned",
      "tar -tf a.tar --use-compress-program=pwned", "tar -tf a.tar --checkpoint=1 --checkpoint-action=exec=pwned",
      "rg --pre pwned readme", "rg --pre=pwned readme .", "rg -i --pre ./evil.sh readme", "rg --pre-glob '*.md' --pre pwned readme",
      "rg --hostname-bin=pwned --hyperlink-format='file://{host}{path}' readme", "git grep -Opwned readme", "git grep -nOpwned readme",
      "git grep -O pwned readme", "xxd README.md victim.txt", "xxd -r README.md victim.txt", "xxd -c 8 README.md victim.txt",
      "PAGER=pwned git log", "LESSOPEN='|pwned %s' less README.md", "RIPGREP_CONFIG_PATH=evil.rgrc rg readme",
      // careful: the plain forms, and options that run nothing
      "rg -n readme", "rg -e --pre readme", "xxd README.md", "git grep -n readme", "npm test", "npm test -- --grep x", "git status", "git log --oneline -1", "git -C src status", "sed -n 1p README.md", "awk '$1 > 5' README.md",
      "awk '/readme|x/' README.md", "sort -r README.md", "find . -name '*.md'",
    ],
  },
  {
    name: "links made before writing through them, and hard links",
    allow: [...READERS, "Bash(ln:*)", "Bash(cp:*)", "Bash(mv:*)", "Bash(tar -xf:*)", "Write(**)"],
    projectMayChange: true,
    lines: [
      "ln -s ../outside made-d && echo x > made-d/f", "ln -s ../outside/target made-t && echo x > made-t", "ln -sf ../outside/target made-v && echo x >> made-v",
      "ln -s .git/hooks made-hk && echo pwned > made-hk/pre-commit", "ln -s .deepcode made-dc && echo '{}' > made-dc/settings.json",
      "cp -s ../outside/target made-c && echo x > made-c", "ln ../outside/target made-h && echo x > made-h", "mv linkdir made-m && echo x > made-m/f",
      "cp -r linkdir made-cr && echo x > made-cr/f", "cp -a linkdir made-ca && echo x > made-ca/f", "echo x > shared.txt", "echo x >> shared.txt",
      "cat README.md > shared.txt", "ln -s ../outside made-d; echo x > made-d/f", "ln -s ../outside made-d || echo x > made-d/f",
      "(ln -s ../outside made-d); echo x > made-d/f", "for i in 1 2; do echo x > made-d/f; ln -sfn ../outside made-d; done",
      "ln -s ~/.ssh/id_rsa made-k && cat made-k", "ln .env made-n && cat made-n", "tar -xf links.tar && echo x > tlink/f",
      "bash -c 'ln -s ../outside made-d' && echo x > made-d/f", "eval 'ln -s ../outside made-d'; echo x > made-d/f",
      // careful: writes inside the project after no link, and a link made without a later write
      "echo x > made-plain.txt", "ln -s README.md made-readme",
    ],
  },
  {
    name: "quoting and encodings",
    allow: READERS,
    lines: [
      "'pwned'", "\"pwned\"", "\\pwned", "p''wned", "p\"\"wned", "pw\\ned", "$'pwned'", "$'\\x70wned'", "$'\\160wned'", "$'\\u0070wned'",
      "$'\\x70\\x77\\x6e\\x65\\x64'", "$\"pwned\"", "pw\\\nned", "echo a; pwned", "echo a;pwned", "echo a & pwned", "echo a\r\npwned",
      "echo a\rpwned", "echo hi\u200b; pwned", "ｐｗｎｅｄ", "echo $'a\\nb'; pwned", "echo \"a\nb\"; pwned", "echo \"$(pwned)\"", "echo \"`pwned`\"",
      "e\\cho x > x.txt", "ec''ho a > x.txt", "\"$(printf pwned)\"", "$(echo pwned)", "`echo pwned`", "X=pwned; $X", "${X:-pwned}",
      "p{w,}ned", "{pwned,}", "pwne? x", "echo a$'\\x3b' pwned > /dev/null", "ec\\\nho a > x.txt", "echo a \\\n> x.txt",
      // careful: literal text
      "echo 'a;pwned'", "echo \\$(pwned)", "echo '$(pwned)'", "echo \"\\$(pwned)\"", "echo a $'\\n' pwned", "echo '`pwned`'",
    ],
  },
  {
    name: "here-documents and here-strings",
    allow: READERS,
    lines: [
      "cat <<EOF\n$(pwned)\nEOF", "cat <<EOF\n`pwned`\nEOF", "cat <<EOF\n${x:-$(pwned)}\nEOF", "cat <<-EOF\n\t$(pwned)\n\tEOF", "cat << EOF\n$(pwned)\nEOF",
      "DEBUG='a[$(pwned)]'; cat <<EOF\n${a[DEBUG]}\nEOF", "DEBUG='a[$(pwned)]'; cat <<EOF\n$((DEBUG))\nEOF", "bash <<EOF\npwned\nEOF",
      "sh <<'EOF'\npwned\nEOF", "cat <<EOF; pwned\nx\nEOF", "cat <<EOF\nx\nEOF\npwned", "cat <<EOF\nunterminated $(pwned)", "cat <<<$(pwned)",
      "cat <<< \"$(pwned)\"", "cat <<EOF > x.txt\nhello\nEOF", "cat > x.txt <<'EOF'\nhello\nEOF", "python3 <<EOF\nimport os; os.system('pwned')\nEOF",
      "cat <<A <<B\n$(pwned)\nA\nx\nB",
      // careful: quoted delimiters do not expand
      "cat <<'EOF'\n$(pwned)\nEOF", "cat <<\"EOF\"\n$(pwned)\nEOF", "cat <<\\EOF\n$(pwned)\nEOF", "cat <<E\"O\"F\n$(pwned)\nEOF", "cat <<< '$(pwned)'",
    ],
  },
  {
    name: "functions, aliases, traps and hashed names",
    allow: [...READERS, ...SHELL_STATE],
    lines: [
      "f() { pwned; }; f", "function f { pwned; }; f", "function f() { pwned; }; f", "ls() { pwned; }; ls", "echo() { pwned; }; echo hi",
      "f() ( pwned ); f", "alias ls=pwned; ls", "shopt -s expand_aliases; alias ls=pwned\nls", "alias ls='pwned'", "trap pwned EXIT",
      "trap 'pwned' ERR; false", "trap -- 'pwned' EXIT", "hash -p ./evilbin/ls ls; ls", "enable -n echo; echo hi", "command_not_found_handle() { pwned; }; nosuchcmd",
      "f() { echo; }; f", "set -T; trap pwned DEBUG; :", "declare -f f", "trap - EXIT",
    ],
  },
  {
    name: "variables bash and programs read",
    allow: [...READERS, ...SHELL_STATE, "Bash(bash -c:*)", "Bash(sh -c:*)"],
    lines: [
      "BASH_ENV=./evil.sh bash -c :", "env BASH_ENV=./evil.sh bash -c :", "export BASH_ENV=./evil.sh; bash -c :", "declare -x BASH_ENV=./evil.sh; bash -c :",
      "ENV=./evil.sh sh -ic :", "PS4='$(pwned)' bash -xc :", "PS4='$(pwned)'; set -x; :", "SHELLOPTS=xtrace PS4='$(pwned)' bash -c :",
      "BASHOPTS=extdebug bash -c :", "PROMPT_COMMAND=pwned bash -ic :", "IFS=p; echo x", "PATH=./evilbin:$PATH ls", "PATH=./evilbin:$PATH; ls",
      "export PATH=./evilbin:$PATH; ls", "read PATH <<< ./evilbin; ls", "printf -v PATH ./evilbin; ls", "mapfile -t PATH <<< ./evilbin; ls",
      "LD_PRELOAD=./evil.so ls", "set -a; BASH_ENV=./evil.sh; bash -c :", "set -k; bash -c : BASH_ENV=./evil.sh", "TEST='$(pwned)'; echo ${TEST@P}",
      "bash --rcfile ./evil.sh -ic :", "bash -O extdebug -c :", "unset PATH; ls", "exec {PATH}>/dev/null; ls", "CDPATH=../outside; cd target",
      // careful: variables that change nothing that runs
      "NODE_ENV=test npm test", "CI=1 git status", "LC_ALL=C sort README.md",
    ],
  },
  {
    name: "secrets through file commands and recursive reads",
    allow: [...READERS, "Bash(cp:*)", "Bash(ln:*)", "Bash(mv:*)", "Bash(tar -cf:*)", "Bash(zip:*)"],
    projectMayChange: true,
    lines: [
      "cat .env", "cat .e*", "cat ./.env", "cat src/../.env", "head .env", "cat < .env", "cat 0<.env", "grep -r CANARY .", "grep -R CANARY .",
      "grep -r CANARY", "grep CANARY .env", "rg --hidden CANARY", "rg -uuu CANARY", "cp .env made-e && cat made-e", "ln .env made-e; cat made-e",
      "ln -s .env made-e; cat made-e", "mv .env made-e", "tar -cf - .", "find . -name .env -exec cat {} \\;", "find . -type f -exec grep -h CANARY {} +",
      "sed -n p .env", "awk 1 .env", "sort .env", "base64 .env", "xxd .env", "cat ~/.ssh/id_rsa", "cat $HOME/.ssh/id_rsa", "grep -r KEY ~",
      "echo .env | xargs cat", "zip -r - . | cat", "cp -r . made-copy && cat made-copy/.env", "diff .env README.md",
      // careful: names only, and files that are no secret
      "grep -rl readme src", "cat README.md", "ls -la", "find . -name '*.md'",
    ],
  },
  {
    name: "long options abbreviated as the programs accept them",
    allow: [...READERS, ...SHELL_STATE, "Bash(git fetch:*)", "Bash(git ls-remote:*)", "Bash(git clone:*)", "Bash(git grep:*)", "Bash(git blame:*)", "Bash(uniq:*)", "Bash(iconv:*)", "Bash(shuf:*)", "Bash(date:*)", "Bash(file:*)", "Bash(du:*)"],
    lines: [
      "npm test --node-opt=--require=./lib/evil.js", "npm test -node-opt=--require=./lib/evil.js", "npm test --node-o --require=./lib/evil.js", "npm test --node=--require=./lib/evil.js",
      "npm test --script-sh=./evil.sh", "npm test --scr=./evil.sh", "npm test -script-sh=./evil.sh", "npm test --userc=evil.npmrc", "npm test --globalc=evil.npmrc", "npm test --pref other",
      "sed --in-pl 's/keep/lost/' victim.txt", "sed --in-p=.bak 's/keep/lost/' victim.txt", "sed --expr='1e pwned' README.md", "sed --e='1e pwned' README.md", "sed --fil=evil.sed README.md",
      "sed -n --expr='s/.*/x/w x.txt' README.md", "tar -tf a.tar --checkpoint=1 --checkpoint-act=exec=pwned", "tar -tf a.tar --checkp=1 --checkpoint-a=exec=pwned", "tar -tf a.tar --use-compress-prog=pwned",
      "tar -tf a.tar --use=pwned", "make test --eva='X:=$(shell pwned)'", "make test --fil=other.mk", "make test --makef=other.mk", "make test --dir=other", "make test --direc=other",
      "git fetch --upload-pa=pwned .", "git fetch --upl=pwned .", "git ls-remote --upload-pa=pwned .", "git clone -q --templ=evil-tpl . made-clone", "git grep --open-files-in=pwned readme",
      "git grep --no-ind CANARY", "git blame --conte=.env README.md", "sort --outp=x.txt README.md", "sort --out=victim.txt README.md", "sort --o=victim.txt README.md", "grep --recur CANARY .",
      "grep --dereference-r CANARY .", "xargs --arg-f=.env echo", "xargs --arg=.env echo", "timeout --sig=KILL 5 pwned", "env --unse=HOME pwned", "nice --adj=1 pwned", "stdbuf --out=L pwned",
      "date --fi=.env", "file --files-f=.env", "wc --files0=.env", "du --files0-f=.env", "uniq --sk=1 README.md victim.txt", "iconv -f utf8 -t utf8 --outp=victim.txt README.md", "shuf --out=victim.txt README.md",
      "diff --from-f=.env README.md", "diff --recur --from-f=.env src",
      // careful: abbreviations of options that only shape output
      "sed --quie -n 1p README.md", "sort --rev README.md", "grep --line-n readme README.md", "git grep --line-n readme", "npm test --sil", "head --lin=1 README.md",
    ],
  },
  {
    name: "options that read files the reader must see",
    allow: [...READERS, ...SHELL_STATE, "Bash(git grep:*)", "Bash(git blame:*)", "Bash(date:*)", "Bash(file:*)", "Bash(du:*)", "Bash(jq:*)"],
    lines: [
      "git diff --no-index .env README.md", "git diff --no-index -- .env README.md", "git diff .env ../outside/target", "git grep --no-index CANARY", "git grep --no-index -e CANARY -- .",
      "git grep --untracked --no-exclude-standard CANARY", "git blame --contents .env README.md", "git blame --contents=.env -- README.md", "wc --files0-from=.env", "du --files0-from=.env",
      "printf '.env\\0' | sort --files0-from=-", "sort --files0-from=.env", "date -f .env", "date --file=.env", "file -f .env", "file --files-from=.env", "diff --from-file=.env README.md",
      "diff README.md --to-file=.env", "xargs -a .env echo", "xargs -a.env echo", "jq -n --rawfile x .env '$x'", "jq -n --slurpfile x .env '$x'", "jq -R . .env",
      "awk 'BEGIN{ARGV[1]=\".env\";ARGC=2}{print}'", "awk 'BEGIN{ARGV[ARGC++]=\".env\"}1' README.md", "awk 'BEGIN { ARGV [1] = \".env\" ; ARGC = 2 } { print }'",
      "awk '/\"/{x=1} BEGIN{system(\"pwned\")} /\"/{x=2}' README.md", "awk '/\"/ {x=1} BEGIN{while((getline l < \".env\")>0) print l} /\"/ {x=2}'", "git add --pathspec-from-file=.env",
      // careful: the same programs on ordinary files
      "git diff", "git diff --stat", "git diff HEAD -- README.md", "git blame README.md", "date", "wc -l README.md", "jq -n 1", "awk '{print $1}' README.md", "awk '/\"/' README.md",
    ],
  },
  {
    name: "operands and options that are outputs",
    allow: [...READERS, "Bash(uniq:*)", "Bash(iconv:*)", "Bash(shuf:*)", "Bash(split:*)", "Bash(csplit:*)", "Bash(zstd:*)", "Bash(tee:*)"],
    lines: [
      "uniq README.md victim.txt", "uniq - .mcp.json < README.md", "uniq README.md .mcp.json", "uniq - package.json < README.md && npm test", "uniq -c README.md .deepcode/settings.json",
      "iconv -f utf8 -t utf8 -o victim.txt README.md", "iconv -f utf8 -t utf8 -o .mcp.json README.md", "iconv -f utf8 -t utf8 -ovictim.txt README.md", "shuf -o victim.txt README.md",
      "shuf -o .mcp.json README.md", "split -l 1 README.md", "split -l 1 README.md .git/hooks/pre-", "csplit -f .git/hooks/x README.md 1", "zstd -q README.md -o .mcp.json",
      "zstd -q -f README.md -o made-z.zst", "xxd README.md .mcp.json", "sort README.md -o .mcp.json",
      // careful: output to the terminal
      "uniq README.md", "uniq -c README.md -", "shuf -n 1 README.md", "iconv -f utf8 -t utf8 README.md", "zstd -q -c README.md > /dev/null",
    ],
  },
  {
    name: "files named like options, matched by a glob",
    allow: [...READERS, ...SHELL_STATE],
    lines: [
      "cd opt-sort && sort *", "cd opt-sort && sort -- *", "cd opt-sed && sed -n p *.md", "cd opt-sed && sed -n p *", "cd opt-grep && grep CANARY *", "cd opt-grep && cat *",
      "cd opt-grep; grep CANARY *", "cd opt-sort && sort ?*", "cd opt-sort && sort [-a]*",
      // careful: the same globs where no name starts with a dash
      "cat src/*", "sort src/*.txt", "grep a src/*", "cd src && cat *",
    ],
  },
  {
    name: "wrappers that run their arguments, under a bare Bash allow",
    allow: ["Bash"],
    lines: [
      "setarch x86_64 pwned", "setarch x86_64 -R pwned", "setarch $(uname -m) pwned", "linux64 pwned", "linux32 pwned", "linux64 -R rm victim.txt", "rbash -c pwned", "rbash -c 'rm victim.txt'",
      "split --filter=pwned README.md", "split --filt=pwned README.md", "split -l 1 --filter='rm victim.txt' README.md", "tar -xf a.tar --to-command=pwned", "tar -xf a.tar --to-comm=pwned",
      "tar -tf a.tar --checkpoint=1 --checkpoint-action=exec=pwned", "tar -tf a.tar -I pwned", "tar -tf a.tar --use-compress-program='pwned -x'", "nice -n 1 pwned", "nice --adj=1 pwned",
      "timeout --sig=KILL 5 pwned", "timeout -k 1 5 rm victim.txt", "stdbuf -oL pwned", "stdbuf --out=L rm victim.txt", "env -S pwned", "env --split-string='rm victim.txt'",
      "flock made-lock pwned", "flock made-lock -c pwned", "script -qc pwned /dev/null", "script -q -c 'rm victim.txt' /dev/null", "ionice -c 3 pwned", "taskset 1 pwned",
      "xargs -a README.md pwned", "git -c alias.x='!pwned' x", "git -c core.sshCommand=pwned ls-remote ssh://example.invalid/x", "ssh -o ProxyCommand=pwned example.invalid",
      "ssh -oProxyCommand='rm victim.txt' example.invalid", "sort --compress-program=pwned README.md",
      // careful: wrappers around allowed commands
      "nice -n 1 ls", "timeout 5 ls", "setarch x86_64 ls", "linux64 ls", "stdbuf -oL ls", "split -l 1 --filter='cat > /dev/null' README.md",
    ],
  },
  {
    name: "copies, moves and links that plant protected paths",
    allow: [...READERS, "Bash(cp:*)", "Bash(mv:*)", "Bash(ln:*)", "Bash(install:*)", "Bash(tar:*)", "Bash(unzip:*)", "Bash(rsync:*)", "Bash(git checkout:*)", "Bash(git restore:*)", "Write(**)"],
    projectMayChange: true,
    lines: [
      "cp -r templates/.claude .", "cp -R templates/.claude ./", "cp -a templates/.claude .", "cp templates/.mcp.json .", "cp -r templates/. .", "cp -t . templates/.mcp.json",
      "cp --target-directory=. templates/.mcp.json", "cp --target=. templates/.mcp.json", "mv templates/.mcp.json .", "mv templates/.claude .", "mv -t . templates/.claude", "ln -s templates/.mcp.json .",
      "ln templates/.mcp.json .", "install templates/.mcp.json .", "install -D templates/.mcp.json .mcp.json", "cp -r templates/.claude made-c && mv made-c/commands .claude",
      "tar -cf made-t.tar -C templates .mcp.json && tar -xf made-t.tar", "cd templates && cp .mcp.json ..", "cp -r templates/ok/../.claude .",
      "tar -xf plant.tar", "tar xf plant.tar", "tar -xzf plant.tgz", "tar -x -f plant.tar", "tar --extract --file=plant.tar", "tar --ext --fil=plant.tar", "tar -C . -xf plant.tar",
      "tar -xf plant.tar -C templates/..", "tar -xf plant.tar .mcp.json", "unzip -q plant.zip", "unzip -qo plant.zip -d .", "cat plant.tar | tar -x",
      "git checkout evil -- .claude", "git checkout evil -- .", "git checkout evil -- .mcp.json", "git checkout evil .mcp.json", "git restore --source=evil .claude",
      "git restore --source evil -- .", "git restore -s evil .mcp.json", "git checkout evil -- templates/..",
      // careful: copies that land in ordinary places
      "cp -r templates/ok made-ok", "cp templates/ok/a.txt made-a.txt", "mv made-none made-none2 2>/dev/null; true", "ln -s templates/ok made-link",
      "tar -xf ok.tar", "unzip -q ok.zip", "tar -tf plant.tar", "unzip -l plant.zip", "tar -xOf plant.tar .mcp.json",
    ],
  },
];

/** Must be allowed without a prompt, and run for real, under the readers' rules. */
export const CONTROLS: string[] = [
  "echo hi", "ls", "ls -la src", "cat README.md", "git status", "git log --oneline -1", "npm test", "grep -n readme README.md",
  "echo a | sort", "sed -n 1p README.md", "awk '{print $1}' README.md", "echo ok > /dev/null", "ls 2>/dev/null", "head -1 README.md",
];

export const CONTROL_ALLOW = READERS;
