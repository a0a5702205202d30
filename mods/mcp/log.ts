// The MCP log beside the session (`<session>.mcp.log`, 0600): every server's connection
// attempts, failures, stderr and `notifications/message` lines. The file is opened only when a
// line is first written, so a session without MCP servers leaves no empty log behind; lines
// written before the session is known wait in memory (the last MAX_BUFFERED_LINES).

import { createWriteStream, mkdirSync, type WriteStream } from "node:fs";
import { join } from "node:path";

const MAX_BUFFERED_LINES = 500;

export class McpLog {
  private log?: { file: string; stream: WriteStream };
  /** Where this session's log goes once it has a line. */
  private target?: string;
  private readonly buffered: string[] = [];

  /** `dir`: the sessions folder (none: lines stay in memory). */
  constructor(private readonly dir: () => string | undefined) {}

  /** The open log's path, once it has a line. */
  get file(): string | undefined {
    return this.log?.file;
  }

  /** A new session: its lines go to its own file. */
  open(sessionId: string): void {
    const dir = this.dir();
    if (!dir) return;
    void this.end();
    this.target = join(dir, `${sessionId}.mcp.log`);
    if (this.buffered.length) this.ensure();
  }

  line(server: string, text: string): void {
    const l = `${new Date().toISOString()} ${server} ${text}\n`;
    this.ensure();
    if (this.log) this.log.stream.write(l);
    else if (this.buffered.push(l) > MAX_BUFFERED_LINES) this.buffered.shift();
  }

  /** End the log and wait until its file is closed (nothing lands after the session). */
  end(): Promise<void> {
    const log = this.log;
    this.log = undefined;
    if (!log) return Promise.resolve();
    return new Promise((resolve) => {
      log.stream.once("close", () => resolve());
      log.stream.end();
    });
  }

  private ensure(): void {
    const dir = this.dir();
    if (this.log || !this.target || !dir) return;
    const file = this.target;
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const stream = createWriteStream(file, { flags: "a", mode: 0o600 });
      stream.on("error", () => (this.log = undefined)); // a log that cannot be written is dropped; /mcp still shows stderr
      this.log = { file, stream };
      for (const l of this.buffered.splice(0)) stream.write(l);
    } catch {
      this.log = undefined; // no folder for it: the lines stay in memory (/mcp shows the last ones)
    }
  }
}
