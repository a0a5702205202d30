// Opening the sign-in page. `BROWSER` (the usual variable: a command, `%s` standing for the
// URL, else the URL is its last argument) is used whenever it is set; otherwise a browser is
// tried only where a person can be at one — a terminal on this machine with a display
// (`DISPLAY`/`WAYLAND_DISPLAY` and xdg-open on Linux, `open` on macOS). Either way the URL is
// printed, so a sign-in over SSH works by opening it elsewhere… as long as that browser can
// reach this machine's 127.0.0.1 (forward the callback port).

import { spawn } from "node:child_process";
import { findOnPath } from "../../../src/lib/path-lookup.js";

export function openBrowser(url: string, env: NodeJS.ProcessEnv = process.env, interactive = Boolean(process.stdout.isTTY)): string | undefined {
  const custom = env.BROWSER?.trim();
  if (custom) {
    const words = custom.split(/\s+/);
    const args = words.slice(1).map((w) => w.replaceAll("%s", url));
    if (!custom.includes("%s")) args.push(url);
    return run(words[0], args) ? words[0] : undefined;
  }
  if (!interactive) return undefined;
  if (process.platform === "darwin") return run("open", [url]) ? "open" : undefined;
  if (process.platform === "linux" && (env.DISPLAY || env.WAYLAND_DISPLAY)) {
    const xdg = findOnPath("xdg-open", env.PATH ?? "");
    return xdg && run(xdg, [url]) ? "xdg-open" : undefined;
  }
  return undefined;
}

function run(cmd: string, args: string[]): boolean {
  try {
    const child = spawn(cmd, args, { stdio: "ignore", detached: true });
    child.on("error", () => undefined); // no such program: the printed URL is the way
    child.unref();
    return true;
  } catch {
    return false; // could not start it: the printed URL is the way
  }
}
