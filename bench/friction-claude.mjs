// Claude Code beside deepcode in the friction bench (issue 21): the same fixture and judgement
// (bench/friction-lib.mjs), but each command is one Bash call the stand-in model makes in
// `claude -p` — the pinned Claude Code of bench/peers (installed on demand into its cache
// folder), pointed at the simulator's Anthropic endpoint the way bench/peers/agents.mjs does.
// In -p an ask is a denial: Claude Code lists it in the result's `permission_denials`.
//
// Claude Code's config folder (CLAUDE_CONFIG_DIR, its user settings.json) and its XDG folders
// live beside the fixture, not in its home folder, so what Claude Code itself writes there is
// not counted as a harmful command's effect on the home folder.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { agents } from "./peers/agents.mjs";
import { binPath, ensurePeers, pinnedVersions, versionOf } from "./peers/install.mjs";
import { copyTemplate, runJsonResult, stateOf } from "./friction-lib.mjs";
import { startSimulator } from "../test/sim/server.mjs";

const API_KEY = "sk-friction-bench-claude";
export const CLAUDE_PACKAGE = "@anthropic-ai/claude-code";

const TEAM_ALLOW = ["Bash(npm test:*)", "Bash(git status)", "Bash(git diff:*)", "Bash(git log:*)", "Bash(ls:*)", "Bash(cat:*)", "Bash(grep:*)"];

/** Claude Code's configurations: its user settings.json for each. */
export const CLAUDE_CONFIGS = [
  { id: "claude-default", label: "Claude Code, default settings", settings: {} },
  { id: "claude-team", label: "Claude Code, the same team allow list", settings: { permissions: { allow: TEAM_ALLOW } } },
  {
    id: "claude-sandbox",
    label: "Claude Code, its sandbox with autoAllowBashIfSandboxed",
    settings: { sandbox: { enabled: true, autoAllowBashIfSandboxed: true } },
  },
];

/**
 * The pinned Claude Code, installed when missing: `{ bin, version }`, or `{ reason }` when it
 * cannot run here (the install failed, or the binary does not answer `--version`).
 */
export function claudeReady(log) {
  const pinned = pinnedVersions()[CLAUDE_PACKAGE];
  let dir;
  try {
    dir = ensurePeers({ log });
  } catch (err) {
    return { reason: `installing ${CLAUDE_PACKAGE}@${pinned} failed: ${String(err.message).split("\n").slice(0, 3).join(" ")}` };
  }
  const bin = binPath(dir, "claude");
  const version = versionOf(bin);
  if (!version.startsWith(pinned)) return { reason: `${bin} --version printed "${version}", not the pinned ${pinned}` };
  return { bin, version };
}

/** The model: the one Bash call (or each of `calls`, one per answer) on requests that offer the
 *  Bash tool, then "done". */
function respond(command, calls) {
  const list = calls ?? [{ command }];
  return (chat) => {
    const messages = Array.isArray(chat.messages) ? chat.messages : [];
    const hasBash = (chat.tools ?? []).some((t) => (t.function?.name ?? t.name) === "Bash");
    const done = messages.filter((m) => m.role === "tool").length;
    if (done >= list.length) return { content: "done" };
    if (hasBash) return { tool_calls: [{ id: `toolu_friction_${done + 1}`, name: "Bash", arguments: { description: "Run the command", ...list[done] } }] };
    return { content: "ok" }; // a side request without tools (a title, a topic check)
  };
}

/** The environment the peers bench gives Claude Code, less the proxy trap, with its folders moved. */
function claudeEnv(box, url) {
  const claude = agents("").find((a) => a.id === "claude");
  const env = claude.setup({ home: box.home, url, proxy: "" });
  for (const k of ["HTTPS_PROXY", "HTTP_PROXY", "https_proxy", "http_proxy", "ALL_PROXY", "NO_PROXY", "no_proxy"]) delete env[k];
  const own = join(box.base, "claude");
  Object.assign(env, {
    CLAUDE_CONFIG_DIR: join(own, "config"),
    XDG_CONFIG_HOME: join(own, "xdg-config"),
    XDG_DATA_HOME: join(own, "xdg-data"),
    XDG_STATE_HOME: join(own, "xdg-state"),
    XDG_CACHE_HOME: join(own, "xdg-cache"),
    TMPDIR: join(own, "tmp"),
  });
  for (const k of ["CLAUDE_CONFIG_DIR", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "TMPDIR"]) mkdirSync(env[k], { recursive: true });
  return env;
}

/** npm's own debug log (its name has a timestamp): Claude Code's sandbox start-up writes one. */
const NPM_LOG = /^\.npm(\/_logs(\/[0-9TZ_:.-]+-debug-\d+\.log)?)?$/;

/**
 * A runner for judgeBenign/judgeHarmful: one command as one Bash call in `claude -p`. Its
 * `footprint(settings)` is what Claude Code writes in the home folder and the project on the
 * no-op command `true` in that configuration (its sandbox creates ~/.claude/…, the project's
 * .claude/.cc-writes and an empty .git/config.worktree as mount points), measured once per
 * configuration from the fixture `template`; judgeHarmful does not count those as effects.
 */
export function claudeRunner(bin, template) {
  const footprints = new Map();
  async function footprint(settings) {
    const key = JSON.stringify(settings);
    if (!footprints.has(key)) {
      footprints.set(key, (async () => {
        const box = copyTemplate(template);
        try {
          const before = stateOf(box);
          await runClaude({ box, command: "true", settings });
          const after = stateOf(box);
          const created = (part) => Object.fromEntries(Object.entries(after[part]).filter(([k]) => !(k in before[part])));
          return { home: created("home"), prot: created("prot"), patterns: [NPM_LOG] };
        } finally {
          rmSync(box.base, { recursive: true, force: true });
        }
      })());
    }
    return footprints.get(key);
  }
  runClaude.footprint = footprint;
  return runClaude;

  async function runClaude({ box, command, calls, settings, env: extra = {}, timeoutMs = 120_000 }) {
    const sim = await startSimulator({ script: { respond: respond(command, calls) }, apiKey: API_KEY });
    try {
      const env = { ...claudeEnv(box, sim.url), ...extra, ANTHROPIC_AUTH_TOKEN: API_KEY };
      writeFileSync(join(env.CLAUDE_CONFIG_DIR, "settings.json"), JSON.stringify(settings));
      const out = await runJsonResult(bin, ["-p", "run the command", "--output-format", "json"], { cwd: box.root, env, timeoutMs, killSignal: "SIGKILL" });
      const result = out.result;
      const sent = sim.requests.map((r) => JSON.stringify(r.json ?? null)).join("\n");
      const bashOffered = sim.requests.some((r) => JSON.stringify(r.json?.tools ?? []).includes('"Bash"'));
      const denials = Array.isArray(result?.permission_denials) ? result.permission_denials : [];
      const denied = result === null || !bashOffered || denials.length > 0;
      const reason = result === null ? `no result (exit ${out.code}): ${out.stderr.slice(0, 300)}` : !bashOffered ? "Claude Code never offered the Bash tool" : denials.length > 0 ? `denied: ${JSON.stringify(denials[0]).slice(0, 200)}` : "";
      // Its Bash results (Anthropic tool_result blocks), for "worked": none found leaves it unjudged.
      const blocks = (sim.requests.at(-1)?.json?.messages ?? []).flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((b) => b?.type === "tool_result");
      const texts = blocks.map((b) => (typeof b.content === "string" ? b.content : (Array.isArray(b.content) ? b.content : []).map((x) => x?.text ?? "").join("")));
      const judged = blocks.length > 0 ? { toolMessages: texts, toolFailed: blocks.at(-1).is_error === true } : {};
      return { denied, reason, sent, toolMessage: texts[0] ?? "", code: out.code, ...judged };
    } finally {
      await sim.close();
    }
  }
}
