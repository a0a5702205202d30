// What protects the person where the Bash sandbox is not active, per platform, for /status,
// `deepcode doctor` and the warning at start (issue #36, item 3): Linux without bubblewrap says
// how to get it in one line; macOS says its Seatbelt profile is generated but has not run on a
// Mac yet, so commands run uncontained there; Windows has no sandbox.

const GATE = "commands run uncontained and the permission gate decides (a question for what no rule allows)";

export interface Uncontained {
  /** What protects the person instead, in one line. */
  uncontained: string;
  /** How to get commands contained, in one line; absent where nothing can be done yet. */
  fix?: string;
}

/** `problem`: why the sandbox is not active (sandboxStatus's detail). */
export function uncontainedOn(platform: NodeJS.Platform, problem: string, turnedOff = false): Uncontained {
  if (turnedOff) return { uncontained: GATE, fix: "set sandbox.enabled to true in settings" };
  if (platform === "linux") return { uncontained: GATE, fix: linuxFix(problem) };
  if (platform === "darwin") {
    return {
      uncontained: `macOS: the Seatbelt profile is generated but has not run on a Mac yet: ${GATE}`,
      fix: "none on macOS yet; `deepcode sandbox --profile` prints the Seatbelt profile deepcode would use, to try with sandbox-exec",
    };
  }
  if (platform === "win32") return { uncontained: `Windows has no sandbox: ${GATE}` };
  return { uncontained: `no sandbox on ${platform}: ${GATE}` };
}

/** One line: the package when bwrap is missing, the kernel settings when it cannot start. */
function linuxFix(problem: string): string {
  const userns = "allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 23.10 and later kernel.apparmor_restrict_unprivileged_userns=0)";
  if (/cannot create a sandbox/.test(problem)) return userns;
  return "install bubblewrap (apt install bubblewrap), or your distribution's bubblewrap package";
}
