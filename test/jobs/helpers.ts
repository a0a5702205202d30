// Helpers for the background-job tests: a long sleep nobody else runs (so its process can be
// found by its command line), and a look at /proc for it — inside bubblewrap's PID namespace a
// job's processes still show in the host's /proc, under their host ids.
import { readdirSync, readFileSync } from "node:fs";

/** A `sleep` with a duration no other process on the machine has: its command line is the mark. */
export function uniqueSleep(): string {
  return `sleep ${7000 + Math.floor(Math.random() * 900_000)}.${Math.floor(Math.random() * 1000)}`;
}

/** The ids of live processes whose command line is exactly `command` (words joined by spaces). */
export function processesRunning(command: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    let cmdline: string;
    let stat: string;
    try {
      cmdline = readFileSync(`/proc/${name}/cmdline`, "utf8");
      stat = readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue; // it ended while we looked
    }
    if (/^\d+ \(.*\) Z/.test(stat)) continue; // a zombie is dead, only not yet reaped
    if (cmdline.split("\0").filter(Boolean).join(" ") === command) found.push(Number(name));
  }
  return found;
}

/** Wait until `check` holds, polling; false when it never did within `timeoutMs` (a generous
 *  limit for a loaded machine, not a speed). */
export async function eventually(check: () => boolean, timeoutMs = 120_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
}

type Message = { role: string; content?: string | null; tool_calls?: Array<{ function: { name: string } }> };
export type Chat = { messages: Message[] };

/** The tool results of a request, in order. */
export function toolResults(json: Chat): string[] {
  return json.messages.filter((m) => m.role === "tool").map((m) => m.content ?? "");
}
