// The agent's own servers: ports a background job's server is forwarded at on the host's
// loopback (the sandbox mod's report, KnownStatus["sandbox"].served; mods/sandbox/serve.ts).
// The sandbox binds such a port only when nobody held it, so 127.0.0.1, ::1 and `localhost` at
// it reach the job's server and nothing of the person's: WebFetch there needs no question, and
// the core's http.fetch may reach it although it is a loopback address (assemble.ts).

const LOOPBACK_NAMES = new Set(["127.0.0.1", "localhost", "::1"]);

/** Whether `url` is http(s) on a loopback name at one of `ports`. */
export function servedUrl(url: string, ports: readonly number[] | undefined): boolean {
  if (!ports || ports.length === 0) return false;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false; // not a URL: nothing of ours
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return false;
  if (u.username !== "" || u.password !== "") return false;
  const host = u.hostname.toLowerCase().replace(/^\[|\]$/g, "");
  const port = u.port !== "" ? Number(u.port) : u.protocol === "https:" ? 443 : 80;
  return LOOPBACK_NAMES.has(host) && ports.includes(port);
}
