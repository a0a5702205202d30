// Unix sockets a sandboxed command could connect to (issue 21, the sandbox's holes), hidden by
// path — the fallback where the seccomp filter (seccomp.ts) is not there: on an architecture
// deepcode has no filter for, or where it does not load. With the filter, no unix socket can be
// created in the sandbox at all, so these mounts would add nothing and are not made (bwrap.ts);
// the variables below are dropped either way (programs do not try, an error names no socket).
//
// A read-only mount does not stop a connection: connecting to a socket is not writing to it.
// Behind a socket is a process outside the sandbox that acts with its own rights — an
// ssh-agent signs with the person's keys, a Docker daemon is root on the host, the session bus
// starts programs, an editor's server opens and runs files. So the sandbox shows none:
//   - abstract sockets (`@name`) live in a network namespace: bwrap's `--unshare-net` (part of
//     `--unshare-all`) gives the command one of its own, where none is bound;
//   - /tmp, and /run without network, are empty tmpfs mounts (X11's /tmp/.X11-unix,
//     $XDG_RUNTIME_DIR = /run/user/<uid>, /run/docker.sock, the system bus);
//   - every other socket bound on the host's file system — in the workspace, the home folder,
//     /var, anywhere — is listed by the kernel in /proc/net/unix (this process's network
//     namespace: the person's own); each one that exists is hidden under /dev/null (a
//     connection is refused);
//   - the sockets the environment names (SSH_AUTH_SOCK, DOCKER_HOST's `unix://`,
//     GPG_AGENT_INFO), checked by themselves too: a socket bound in another namespace is not in
//     the kernel's list;
//   - the variables that name an agent or a session's bus are not passed to the command.
// A socket bound after the command started, renamed or hard-linked after it was bound, bound
// with a relative path, or bound by a process in another network namespace at a path that no
// variable names, is not covered (the filter covers them all).

import { lstatSync, readFileSync } from "node:fs";
import { isAbsolute } from "node:path";

/** Variables that tell a program where an agent, a daemon or the desktop session listens. The
 *  sockets are hidden anyway; without the variables, programs do not even try (and an error
 *  does not name the socket). */
export const AGENT_ENV = ["SSH_AUTH_SOCK", "SSH_AGENT_PID", "GPG_AGENT_INFO", "DOCKER_HOST", "DBUS_SESSION_BUS_ADDRESS", "DBUS_SYSTEM_BUS_ADDRESS", "XDG_RUNTIME_DIR", "DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY", "KRB5CCNAME", "TMUX", "STY", "EMACS_SOCKET_NAME", "NVIM", "NVIM_LISTEN_ADDRESS", "VSCODE_IPC_HOOK_CLI", "VSCODE_GIT_IPC_HANDLE", "GIT_ASKPASS", "SSH_ASKPASS"];

/** The unix sockets `SSH_AUTH_SOCK`, `DOCKER_HOST` (`unix://…`) and `GPG_AGENT_INFO` name,
 *  where they exist as sockets. */
export function agentSockets(env: NodeJS.ProcessEnv): string[] {
  const named = [env.SSH_AUTH_SOCK, env.DOCKER_HOST?.startsWith("unix://") ? env.DOCKER_HOST.slice("unix://".length) : undefined, env.GPG_AGENT_INFO?.split(":")[0]];
  return named.filter((p): p is string => typeof p === "string" && isAbsolute(p)).filter(isSocket);
}

/** Paths of the sockets bound on the file system, from the kernel's table (`/proc/net/unix`:
 *  the last column, when there are eight; abstract names start with `@` and are left out). */
export function boundSockets(table: string = readTable()): string[] {
  const out: string[] = [];
  for (const line of table.split("\n").slice(1)) {
    const m = /^\s*\S+:\s+\S+\s+\S+\s+\S+\s+\S+\s+\S+\s+\S+\s+(\/.*)$/.exec(line);
    if (m) out.push(m[1]);
  }
  return out;
}

function readTable(): string {
  try {
    return readFileSync("/proc/net/unix", "utf8");
  } catch {
    return ""; // no /proc here: only the sockets the environment names are known
  }
}

/** Every socket to hide: bound ones that still exist as sockets, and those the environment
 *  names; sorted, without repeats. */
export function hostSockets(env: NodeJS.ProcessEnv, table?: string): string[] {
  return [...new Set([...boundSockets(table).filter(isSocket), ...agentSockets(env)])].sort();
}

function isSocket(p: string): boolean {
  try {
    return lstatSync(p).isSocket();
  } catch {
    return false; // gone (the table keeps a socket's name after its file is removed), or not reachable
  }
}
