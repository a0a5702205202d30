// Secrets by what they hold (issue #35): configuration files that carry a credential only
// sometimes, judged by their text, so a token-free one is neither hidden nor asked about.
// The names themselves are protected.ts's list; this file adds the judgement of content.

import { secretNameReason } from "./protected.js";

/**
 * Configuration files that carry a credential only sometimes: a committed `.npmrc` with
 * `registry=…` and `audit=false` is project settings, one with `//host/:_authToken=npm_…` is a
 * secret. These names are judged by what the file holds (the format's credential fields), so
 * the token-free ones are neither hidden nor asked about, and git history holding one is no
 * reason to ask. A value that only names an environment variable (`${NPM_TOKEN}`) is not a
 * credential. What cannot be read (unreadable, too large, not a regular file) counts as a
 * secret: fail closed.
 */
const CONTENT_JUDGED: ReadonlyArray<{ name: string; nocase?: boolean; credential: RegExp }> = [
  // npm: `_authToken`, `_auth`, `_password` (scoped to a registry with `//host/:` or not), and
  // client certificates' keys inline.
  { name: ".npmrc", credential: /^\s*(?:\/\/[^\s=]*:)?(?:_authToken|_auth|_password|password|key|certfile|keyfile)\s*=\s*(?!\$\{[A-Za-z_][A-Za-z0-9_]*\}\s*$)\S/im },
  // Yarn berry: npmAuthToken / npmAuthIdent / npmPassword, at any depth of the YAML.
  { name: ".yarnrc.yml", credential: /^\s*["']?(?:npmAuthToken|npmAuthIdent|npmPassword)["']?\s*:\s*(?!["']?\$\{[A-Za-z_][A-Za-z0-9_]*\}["']?\s*$)\S/im },
  { name: ".pypirc", credential: /^\s*password\s*[=:]\s*\S/im },
  { name: "pip.conf", credential: /^\s*password\s*[=:]\s*\S/im },
  // netrc: a `password` (or `passwd`) token anywhere; machine and login alone are not secret.
  { name: ".netrc", credential: /(?:^|\s)(?:password|passwd|account)\s+\S/im },
  { name: "_netrc", credential: /(?:^|\s)(?:password|passwd|account)\s+\S/im },
  { name: "nuget.config", nocase: true, credential: /<packageSourceCredentials\b|ClearTextPassword|key\s*=\s*["']Password["']/i },
];

/** Files that are secrets only by what they hold, known by where they stand: a tool's own
 *  credential store copied into a project (`.docker/config.json` with an `auth`, a kube config
 *  with a token or a client key). Token-free, they are configuration. */
const CONTENT_ONLY: ReadonlyArray<{ suffix: string; why: string; credential: RegExp }> = [
  { suffix: "/.docker/config.json", why: "Docker's config holding registry credentials", credential: /"(?:auth|identitytoken|registrytoken)"\s*:\s*"[^"]+"/i },
  { suffix: "/.kube/config", why: "a kube config holding cluster credentials", credential: /^\s*(?:token|client-key-data|password|access-token|id-token|refresh-token)\s*:\s*\S/im },
];

/** A URL with a password in its userinfo (`https://user:pass@host`, `postgres://u:p@h/db`). */
export const URL_WITH_PASSWORD = /[a-z][a-z0-9+.-]*:\/\/[^\s/@:'"]+:[^\s/@'"]+@/i;

/** Whether files of this name are judged by their content (see CONTENT_JUDGED). */
export function contentJudged(name: string): boolean {
  return CONTENT_JUDGED.some((c) => (c.nocase ? c.name.toLowerCase() === name.toLowerCase() : c.name === name));
}

/** Whether a content-judged file's text holds a credential (false for other names). */
export function configHoldsCredential(name: string, text: string): boolean {
  const c = CONTENT_JUDGED.find((x) => (x.nocase ? x.name.toLowerCase() === name.toLowerCase() : x.name === name));
  return c !== undefined && (c.credential.test(text) || URL_WITH_PASSWORD.test(text));
}

/**
 * Why the file `name` (at `path`, absolute, when known) is a secret, judging a content-judged
 * name — and a file CONTENT_ONLY knows by its place — by what it holds: `read` returns its text
 * (bounded by the caller), or null when it cannot be read — then it counts (fail closed). The one entry point for a file that can be read; `secretNameReason`
 * is for names alone (a path in a command, a history entry).
 */
export function secretFileReason(name: string, read: () => string | null, path?: string): string | null {
  const only = path === undefined ? undefined : CONTENT_ONLY.find((c) => path.endsWith(c.suffix));
  if (only) {
    const text = read();
    return text === null || only.credential.test(text) || URL_WITH_PASSWORD.test(text) ? only.why : null;
  }
  const why = secretNameReason(name);
  if (why === null || !contentJudged(name)) return why;
  const text = read();
  return text === null || configHoldsCredential(name, text) ? why : null;
}
