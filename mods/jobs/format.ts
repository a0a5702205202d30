// What the model and the person read about background jobs: the start result, BashOutput's new
// output with the job's status, the exit notice, and /jobs' table.

import type { Job } from "./table.js";

/** What BashOutput shows of one read, at most (the end of it; the whole read is kept beside the
 *  session when more came): as much as a foreground Bash result. */
export const READ_MAX_CHARS = 10_000;
/** A filter is tested on at most this much of each line, so a slow pattern stays bounded. */
const FILTER_LINE_CHARS = 2_000;

/** Control and bidi characters as escapes: a command is shown to a person, never obeyed by the
 *  terminal. */
function visible(text: string): string {
  return text.replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

export function shortCommand(command: string, max = 60): string {
  command = visible(command);
  const first = command.trim().split("\n")[0];
  const cut = first.length > max ? `${first.slice(0, max - 1)}…` : first;
  return command.trim().includes("\n") && cut === first ? `${cut} …` : cut;
}

export function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${s % 60}s`;
  return `${Math.floor(m / 60)}h ${m % 60}m`;
}

/** An amount of output, in characters (what the ring counts). */
export function size(chars: number): string {
  if (chars < 1000) return `${chars} chars`;
  if (chars < 1_000_000) return `${(chars / 1000).toFixed(1)}k chars`;
  return `${(chars / 1_000_000).toFixed(1)}M chars`;
}

/** How a job stands, in a few words: `running`, `exited with code 1`, `killed`. */
export function stateText(job: Job): string {
  if (job.state === "running") return "running";
  if (job.state === "failed") return `failed to start (${job.error ?? "unknown error"})`;
  if (job.state === "killed") return job.stoppedBy === "person" ? "stopped by the user" : "killed";
  if (job.exitCode !== null) return `exited with code ${job.exitCode}`;
  return `ended by ${job.signal ?? "a signal"}`;
}

/** Where a job's server is reached from the host (its forwarded ports), or "". */
export function servedText(job: Job): string {
  return [...job.served.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([, address]) => address)
    .join(", ");
}

export function startText(job: Job, where: string): string {
  const id = JSON.stringify(job.id);
  const served = servedText(job);
  return [
    `Started background job ${job.id}${where ? ` in ${where}` : ""}; you will be told when it exits.`,
    ...(served ? [`Its server is reachable at ${served} (from this machine, your later commands and WebFetch).`] : []),
    ...[...job.taken.entries()].map(([port, why]) => takenText(port, why)),
    `New output: UseTool {"name":"BashOutput","input":{"bash_id":${id}}} (optional "filter": a regex of lines to show). Stop it: UseTool {"name":"KillShell","input":{"shell_id":${id}}}.`,
  ].join("\n");
}

/** A job that ended within the start's short wait: said as a foreground run would be. */
export function endedAtOnceText(job: Job): string {
  const out = job.out.since(0).text.replace(/\n$/, "");
  job.read = job.out.total;
  job.heard = true;
  const status = `[background job ${job.id} ${stateText(job)} at once]`;
  return out ? `${out.length > READ_MAX_CHARS ? `…${out.slice(-READ_MAX_CHARS)}` : out}\n${status}` : status;
}

export interface ReadResult {
  text: string;
  /** The whole of this read, when the text shows only its end (for ctx.keepOutput). */
  whole?: string;
  isError: boolean;
}

/** BashOutput: what the job wrote since the last read (lines matching `filter` only: the others
 *  are consumed too), then its status. */
export function readNew(job: Job, filter: RegExp | undefined, now: number): ReadResult {
  const { text: raw, lost } = job.out.since(job.read);
  job.read = job.out.total;
  let text = raw;
  let hidden = 0;
  if (filter) {
    const lines = raw.split("\n");
    if (lines[lines.length - 1] === "") lines.pop();
    const kept = lines.filter((l) => {
      filter.lastIndex = 0;
      return filter.test(l.length > FILTER_LINE_CHARS ? l.slice(0, FILTER_LINE_CHARS) : l);
    });
    hidden = lines.length - kept.length;
    text = kept.join("\n");
  }
  text = text.replace(/\n$/, "");
  const notes: string[] = [];
  if (lost > 0) notes.push(`${lost.toLocaleString("en-US")} characters of output came and went since the last read (each job keeps its last ${job.out.max.toLocaleString("en-US")})`);
  if (hidden > 0) notes.push(`${hidden} line${hidden === 1 ? "" : "s"} not matching the filter left out`);
  let whole: string | undefined;
  if (text.length > READ_MAX_CHARS) {
    whole = text;
    notes.push(`the first ${(text.length - READ_MAX_CHARS).toLocaleString("en-US")} characters of this read left out`);
    text = text.slice(-READ_MAX_CHARS);
  }
  if (job.state !== "running") job.heard = true;
  const runtime = duration((job.ended ?? now) - job.started);
  const served = servedText(job);
  const status = job.state === "running" ? `[job ${job.id} running for ${runtime}${served ? `; serving ${served}` : ""}]` : `[job ${job.id} ${stateText(job)} after ${runtime}]`;
  const body = text || "(no new output)";
  return { text: [body, ...notes.map((n) => `[${n}]`), status].join("\n"), ...(whole ? { whole } : {}), isError: job.state === "failed" };
}

/** The note the model gets when a job ended without it asking (at the next tool result or turn). */
export function exitNotice(job: Job): string {
  const unread = job.out.total - job.read;
  const rest = unread > 0 ? `; ${size(unread)} of its output unread (BashOutput)` : "";
  return `Background job ${job.id} (\`${shortCommand(job.command)}\`) ${stateText(job)}${rest}.`;
}

/** The note the model gets when a job's server becomes reachable from the host after its start
 *  result was written. */
export function servedNotice(job: Job, address: string): string {
  return `Background job ${job.id} (\`${shortCommand(job.command)}\`) serves ${address} (reachable from this machine, your later commands and WebFetch).`;
}

function takenText(port: number, why: string): string {
  return `Port ${port} it listens on is not forwarded to this machine (${why}): nothing outside the sandbox reaches its server there, and a request to 127.0.0.1:${port} reaches whatever holds that port. Use another port.`;
}

/** The note the model gets when a port of a job could not be forwarded after its start result. */
export function takenNotice(job: Job, port: number, why: string): string {
  return `Background job ${job.id} (\`${shortCommand(job.command)}\`): ${takenText(port, why)}`;
}

/** /jobs: one line per job, newest last; an address column when some job serves. */
export function table(jobs: readonly Job[], now: number): string {
  if (jobs.length === 0) return "No background jobs. (The model starts one with Bash run_in_background.)";
  const serving = jobs.some((j) => j.served.size > 0);
  const rows = jobs.map((j) => {
    const dropped = j.out.dropped > 0 ? ` (${size(j.out.dropped)} dropped)` : "";
    return [j.id, stateText(j), duration((j.ended ?? now) - j.started), size(j.out.total) + dropped, ...(serving ? [servedText(j) || "-"] : []), shortCommand(j.command)];
  });
  const head = ["id", "state", "runtime", "output", ...(serving ? ["address"] : []), "command"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]): string => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join("  ");
  return [line(head), ...rows.map(line)].join("\n");
}
