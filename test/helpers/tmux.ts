// Driving the real CLI in a real pseudo-terminal: tmux on a private socket per instance,
// send-keys to type, capture-pane to read. The command is kept on screen after it exits
// (remain-on-exit), so what it printed last can be read too.
import { execFile, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";

export class Tmux {
  private readonly socket = `deepcode-test-${randomBytes(4).toString("hex")}`;
  private readonly name = "t";

  constructor(command: string, opts: { cwd: string; env: Record<string, string>; width?: number; height?: number }) {
    const env = Object.entries(opts.env).map(([k, v]) => `${k}=${shellQuote(v)}`).join(" ");
    this.tmux(["new-session", "-d", "-s", this.name, "-x", String(opts.width ?? 140), "-y", String(opts.height ?? 50), "-c", opts.cwd, `env ${env} ${command}; echo "[exit $?]"; sleep 600`]);
  }

  /** Type literal text (no Enter). */
  type(text: string): void {
    this.tmux(["send-keys", "-t", this.name, "-l", text]);
  }

  /** Press keys by tmux name: Enter, Tab, C-c, C-d, Up… */
  press(...keys: string[]): void {
    this.tmux(["send-keys", "-t", this.name, ...keys]);
  }

  /** Paste text the way a terminal does: bracketed (ESC[200~ … ESC[201~) when the program
   *  turned bracketed paste on, as deepcode's REPL does. */
  paste(text: string): void {
    this.tmux(["set-buffer", "-b", "paste", "--", text]);
    this.tmux(["paste-buffer", "-p", "-d", "-b", "paste", "-t", this.name]);
  }

  screen(): string {
    return this.tmux(["capture-pane", "-t", this.name, "-p", "-S", "-2000"]).stdout;
  }

  /** Only what the terminal shows now, without the scrollback above it: what a person sees
   *  at once. */
  visible(): string {
    return this.tmux(["capture-pane", "-t", this.name, "-p"]).stdout;
  }

  /** Wait until the screen matches; the screen is in the error if it never does. */
  /** The default gives a loaded machine room (the REPL starts node, assembles, talks to the
   *  simulator); a test that fails waits this long, one that passes never does. */
  async waitFor(pattern: RegExp | string | ((screen: string) => boolean), timeoutMs = 120_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      // Read without blocking: the simulator lives in this process and answers the REPL while
      // the test waits (a spawnSync per poll stalled it for as long as tmux took to answer).
      const s = await this.screenAsync();
      if (typeof pattern === "string" ? s.includes(pattern) : typeof pattern === "function" ? pattern(s) : pattern.test(s)) return s;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${String(pattern)}; the screen was:\n${s}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  private screenAsync(): Promise<string> {
    return new Promise((resolve) => {
      execFile("tmux", ["-L", this.socket, "capture-pane", "-t", this.name, "-p", "-S", "-2000"], { encoding: "utf8" }, (_err, stdout) => resolve(stdout));
    });
  }

  /** The pane's title, as the program set it (OSC 0/2) or tmux's default. */
  title(): string {
    return this.tmux(["display-message", "-p", "-t", this.name, "#{pane_title}"]).stdout.trim();
  }

  kill(): void {
    this.tmux(["kill-server"]);
  }

  private tmux(args: string[]) {
    return spawnSync("tmux", ["-L", this.socket, ...args], { encoding: "utf8" });
  }
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** tmux is a Debian peer (.ci/run installs it): tests that drive a terminal skip without it. */
export const TMUX_AVAILABLE = spawnSync("tmux", ["-V"], { encoding: "utf8" }).status === 0;
if (!TMUX_AVAILABLE) process.stderr.write("deepcode tests: tmux not found; the REPL tests that need a real terminal are skipped\n");
