// The environment a sandboxed command gets: by grant (issue #35). In CI the environment is the
// main secret store, and a contained `env` would otherwise hand every token to the model.
//
// Passed: what programs need to run and find their tools — PASS_NAMES, and PASS_PREFIXES (the
// locale, toolchains, CI metadata) — and what deepcode itself sets for the command (the Bash
// tool's PAGER …, a request's own `env`). Dropped: everything else. Never passed, even under a
// passing name: a credential by its name (CREDENTIAL_WORD, CREDENTIAL_PART) or by its value (a
// URL with a password, a well-known token shape). Settings `sandbox.env` names what passes
// anyway (names, `*` globs) — a person's deliberate grant, credentials included. The agent and
// session variables (sockets.ts AGENT_ENV) are never passed: their sockets are not there.

import { URL_WITH_PASSWORD } from "../../src/contract/secret-content.js";
import { globToRegExp } from "../../src/lib/glob-match.js";
import { AGENT_ENV } from "./sockets.js";

const PASS_NAMES = new Set([
  "PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "TERM", "COLORTERM", "TERM_PROGRAM", "TZ", "TMPDIR", "TEMP", "TMP",
  "NO_COLOR", "FORCE_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "COLUMNS", "LINES", "HOSTNAME", "EDITOR", "VISUAL", "PAGER", "LESS", "MANPATH", "INFOPATH",
  "CI", "CONTINUOUS_INTEGRATION", "BUILD_NUMBER", "DEBUG", "VERBOSE",
  "CC", "CXX", "CPP", "LD", "AR", "CFLAGS", "CXXFLAGS", "CPPFLAGS", "LDFLAGS", "LIBS", "MAKEFLAGS", "MAKELEVEL", "PKG_CONFIG_PATH", "LD_LIBRARY_PATH", "LIBRARY_PATH", "CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH", "CMAKE_PREFIX_PATH", "CCACHE_DIR",
  "VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED", "PYTHONIOENCODING", "PYTHONUTF8",
  "GOPATH", "GOROOT", "GOBIN", "GOFLAGS", "GOCACHE", "GOMODCACHE", "GOTOOLCHAIN", "GOOS", "GOARCH", "CGO_ENABLED", "GOEXPERIMENT", "GOPROXY", "GONOSUMDB", "GOPRIVATE", "GONOPROXY", "GOSUMDB", "GOWORK",
  "JAVA_HOME", "JDK_HOME", "JRE_HOME", "MAVEN_HOME", "M2_HOME", "MAVEN_OPTS", "GRADLE_HOME", "GRADLE_USER_HOME", "GRADLE_OPTS", "ANDROID_HOME", "ANDROID_SDK_ROOT", "KOTLIN_HOME",
  "NODE_ENV", "NODE_PATH", "NODE_OPTIONS", "NODE_EXTRA_CA_CERTS", "NVM_DIR", "NVM_BIN", "NVM_INC", "VOLTA_HOME", "PNPM_HOME", "BUN_INSTALL", "DENO_DIR", "DENO_INSTALL",
  "GEM_HOME", "GEM_PATH", "RUBY_VERSION", "BUNDLE_GEMFILE", "BUNDLE_PATH", "RBENV_ROOT", "RBENV_VERSION", "PERL5LIB", "PERL_LOCAL_LIB_ROOT",
  "DOTNET_ROOT", "DOTNET_CLI_TELEMETRY_OPTOUT", "NUGET_PACKAGES", "SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE",
  "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE", "GIT_PAGER", "GIT_EDITOR", "GIT_TERMINAL_PROMPT", "GIT_CONFIG_NOSYSTEM", "GIT_CEILING_DIRECTORIES",
]);

/** Families passed by prefix (still subject to the credential checks). */
const PASS_PREFIXES = ["LC_", "XDG_", "CARGO_", "RUSTUP_", "RUST", "PYENV", "PIP_", "POETRY_", "UV_", "CONDA", "PIPENV_", "npm_config_", "NPM_CONFIG_", "npm_package_", "YARN_", "PNPM_", "NX_", "TURBO_", "JEST_", "VITEST", "PLAYWRIGHT_", "PUPPETEER_", "CYPRESS_", "GITHUB_", "RUNNER_", "GITLAB_CI", "BUILDKITE_", "CIRCLE", "TRAVIS", "JENKINS_"];

/** Whole words (of a name split at `_`) that mark a credential. */
const CREDENTIAL_WORD = /^(TOKENS?|SECRETS?|PASSWORDS?|PASSWD|PASS|PWD|PASSPHRASE|KEYS?|APIKEY|ACCESSKEY|SECRETKEY|PRIVATEKEY|AUTH|AUTHTOKEN|CREDENTIALS?|CREDS|COOKIES?|SESSION|SESSIONID|JWT|PAT|DSN|OTP|SIGNATURE|SALT)$/;
/** Parts of a name that mark a credential wherever they stand (`NPMTOKEN`, `MYSECRET`). */
const CREDENTIAL_PART = /TOKEN|SECRET|PASSW|CREDENTIAL|APIKEY|API_KEY|PRIVATE_KEY|ACCESS_KEY/i;

/** Values that are credentials whatever their name: GitHub, GitLab, Slack, OpenAI-style, AWS,
 *  Google API, Hugging Face, npm, PyPI tokens, and JWTs. */
export const TOKEN_SHAPE = /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{16,}|xox[abprs]-[A-Za-z0-9-]{10,}|sk-[A-Za-z0-9_-]{20,}|(?:AKIA|ASIA)[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{30,}|hf_[A-Za-z0-9]{30,}|npm_[A-Za-z0-9]{30,}|pypi-[A-Za-z0-9_-]{30,}|eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,})/;

/** Whether a variable is a credential, by its name or its value. */
export function isCredential(name: string, value: string): boolean {
  if (name === "PWD" || name === "OLDPWD") return false; // the shell's working folders
  if (CREDENTIAL_PART.test(name)) return true;
  if (name.toUpperCase().split(/[^A-Z0-9]+/).some((w) => CREDENTIAL_WORD.test(w))) return true;
  return URL_WITH_PASSWORD.test(value) || TOKEN_SHAPE.test(value);
}

export interface GrantedEnv {
  env: Record<string, string>;
  /** Names left out because they are (or hold) credentials: their values are kept out of the
   *  command's output too (`redact`). */
  withheld: Array<{ name: string; value: string }>;
  /** Names left out because nothing grants them (not credentials). */
  dropped: string[];
}

/**
 * The command's environment from deepcode's (`base`) and what the request sets (`own`, passed
 * as it is: deepcode's own choice for the command). `named`: settings `sandbox.env`.
 */
export function grantEnv(base: NodeJS.ProcessEnv, own: Record<string, string> = {}, named: readonly string[] = []): GrantedEnv {
  const grants = named.map((n) => globToRegExp(n));
  const env: Record<string, string> = {};
  const withheld: GrantedEnv["withheld"] = [];
  const dropped: string[] = [];
  const agent = new Set(AGENT_ENV);
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined || name in own) continue;
    if (agent.has(name) && !named.includes(name)) {
      dropped.push(name);
      continue;
    }
    if (grants.some((g) => g.test(name))) env[name] = value;
    else if (isCredential(name, value)) withheld.push({ name, value });
    else if (PASS_NAMES.has(name) || PASS_PREFIXES.some((p) => name.startsWith(p))) env[name] = value;
    else dropped.push(name);
  }
  return { env: { ...env, ...own }, withheld, dropped: dropped.sort() };
}

/** The shortest withheld value worth looking for in output (shorter ones are too common). */
const MIN_REDACTED = 8;

/** `text` with every withheld value replaced by `[withheld: NAME]`: a value that reached the
 *  command some other way (a file, a copy) still never reaches the model through its output. */
export function redact(text: string, withheld: GrantedEnv["withheld"]): string {
  let out = text;
  for (const w of withheld) if (w.value.length >= MIN_REDACTED && out.includes(w.value)) out = out.split(w.value).join(`[withheld: ${w.name}]`);
  return out;
}
