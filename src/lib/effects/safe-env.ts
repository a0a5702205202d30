// Environment assignments that leave a command's program and what it loads as they are. Used by
// the permission gate (an allow rule still vouches for `NODE_ENV=test npm test`) and by
// tool.effects (any other assignment keeps a command from being read-only).

/** Variables that do not change which program runs or what it loads: `NODE_ENV=test npm test`
 *  still matches `Bash(npm test:*)`. Any other assignment (PATH, LD_PRELOAD, GIT_SSH_COMMAND…)
 *  means an allow rule cannot vouch for what runs, so the command asks. */
export const SAFE_ENV = new Set([
  "CI", "DEBUG", "NODE_ENV", "RAILS_ENV", "RACK_ENV", "APP_ENV", "ENV_NAME", "LANG", "LANGUAGE", "TZ", "NO_COLOR",
  "FORCE_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "COLUMNS", "LINES", "TERM", "VERBOSE", "LOG_LEVEL", "RUST_BACKTRACE",
  "RUST_LOG", "PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE", "PYTHONHASHSEED", "GOOS", "GOARCH", "CGO_ENABLED",
  "GOFLAGS", "GOMAXPROCS", "NODE_NO_WARNINGS", "JEST_WORKER_ID", "VITEST", "TEST", "PORT", "HOST",
]);

export function isSafeEnv(name: string): boolean {
  return SAFE_ENV.has(name) || /^LC_[A-Z]+$/.test(name);
}
