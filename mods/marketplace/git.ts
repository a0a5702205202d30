// The person's own git, for marketplaces and plugins that live in git repositories. Never asks
// for credentials on the terminal (GIT_TERMINAL_PROMPT=0: a private repository needs the
// person's configured credential helper or SSH key), and a failure says what git said.

import { spawn } from "node:child_process";

export class GitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GitError";
  }
}

export function git(args: string[], cwd?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    const child = spawn("git", args, { cwd, env: { ...process.env, GIT_TERMINAL_PROMPT: "0" }, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", (e: NodeJS.ErrnoException) =>
      reject(new GitError(e.code === "ENOENT" ? "git is not installed: deepcode uses your git to fetch marketplaces and plugins from git repositories" : `git ${args[0]}: ${e.message}`)),
    );
    child.on("close", (code) => {
      if (code === 0) return resolve(out.trim());
      const said = err.trim().split("\n").slice(-3).join(" / ") || `exit ${code}`;
      const verb = args.find((a, i) => !a.startsWith("-") && args[i - 1] !== "-c" && args[i - 1] !== "-C") ?? "";
      reject(new GitError(`git ${verb} failed: ${said}`));
    });
  });
}

/** Clone `url` into `dir` (which must not exist), at `ref` when given, checked out at `sha`
 *  when given (and verified to be there). Returns the commit checked out. */
export async function cloneAt(url: string, dir: string, pins: { ref?: string; sha?: string } = {}): Promise<string> {
  // ext:: URLs run a command of the URL's choosing: never, whatever the person's git config says.
  await git(["-c", "protocol.ext.allow=never", "clone", "--quiet", ...(pins.ref ? ["--branch", pins.ref] : []), "--", url, dir]);
  if (pins.sha) {
    try {
      await git(["-c", "advice.detachedHead=false", "checkout", "--quiet", pins.sha], dir);
    } catch {
      throw new GitError(`the pinned commit ${pins.sha} is not in ${url}${pins.ref ? ` (branch ${pins.ref})` : ""}`);
    }
  }
  const head = await git(["rev-parse", "HEAD"], dir);
  if (pins.sha && head.toLowerCase() !== pins.sha.toLowerCase()) throw new GitError(`${url} is at ${head}, not at the pinned commit ${pins.sha}`);
  return head;
}
