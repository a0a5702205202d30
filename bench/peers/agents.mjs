// How each agent is run: one prompt per process, in print mode, resuming its own latest session
// for every task after the first (each agent's own continue flag). Each agent gets a fake HOME
// (and XDG folders, and its own config folder) in a temp folder, so nothing of the real user is
// read or touched, and the proxy trap as HTTP(S)_PROXY with NO_PROXY for loopback. Telemetry
// and update checks are switched off by each agent's documented setting; the trap shows any
// that are left.
//
// Settings beyond the endpoint are the ones a user pointing the agent at DeepSeek would use:
//   deepcode  DEEPSEEK_BASE_URL; tools allowed in the user settings; the session's window as
//             settings compaction.window (deepcode's own window is the model's 1M).
//   Reasonix  config.toml [[providers]] kind "openai", base_url, context_window; permissions
//             "allow"; the Bash sandbox off (no bubblewrap jail is needed on loopback).
//   pi        its built-in deepseek provider with baseUrl moved (models.json), with the two
//             compat flags pi itself detects for api.deepseek.com (no developer role, no store);
//             contextWindow overridden for the long session.
//   opencode  its bundled deepseek provider with options.baseURL moved; permissions allow; the
//             model's context limit set for the long session.
//   Claude    the variables DeepSeek documents for Claude Code (ANTHROPIC_BASE_URL at /anthropic,
//             ANTHROPIC_AUTH_TOKEN, the model names, CLAUDE_CODE_AUTO_COMPACT_WINDOW) plus the
//             switches that turn off non-essential traffic; tools allowed with --allowedTools
//             (bypassPermissions is refused to root).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { binPath } from "./install.mjs";

const API_KEY = "sk-bench-peers-0000";
const DEEPCODE = fileURLToPath(new URL("../../bin/deepcode.js", import.meta.url));
const DEEPSEEK_WINDOW = 1_000_000;

function baseEnv(home, proxy) {
  return {
    PATH: process.env.PATH,
    LANG: "C.UTF-8",
    TERM: "dumb",
    NO_COLOR: "1",
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_STATE_HOME: join(home, ".local", "state"),
    XDG_CACHE_HOME: join(home, ".cache"),
    HTTPS_PROXY: proxy,
    HTTP_PROXY: proxy,
    https_proxy: proxy,
    http_proxy: proxy,
    ALL_PROXY: proxy,
    NO_PROXY: "127.0.0.1,localhost,::1",
    no_proxy: "127.0.0.1,localhost,::1",
  };
}

const write = (path, text) => {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
};

/**
 * The agents: `{ id, label, protocol, version: [cmd, args], setup({ home, url, proxy, window }) →
 * env, argv(prompt, resume) }`. `peers` is the install folder of the peer agents.
 */
export function agents(peers) {
  return [
    {
      id: "deepcode",
      label: "deepcode",
      cmd: process.execPath,
      versionArgs: [DEEPCODE, "--version"],
      setup({ home, url, proxy, window }) {
        const dc = join(home, ".deepcode");
        const settings = { permissions: { allow: ["Bash", "Edit", "Write"] } };
        if (window) settings.compaction = { window };
        write(join(dc, "settings.json"), JSON.stringify(settings, null, 2));
        return { ...baseEnv(home, proxy), DEEPSEEK_BASE_URL: url, DEEPSEEK_API_KEY: API_KEY, DEEPCODE_HOME: dc };
      },
      argv: (prompt, resume) => [DEEPCODE, "-p", prompt, ...(resume ? ["-c"] : []), "--output-format", "json"],
    },
    {
      id: "reasonix",
      label: "Reasonix",
      cmd: binPath(peers, "reasonix"),
      versionArgs: ["--version"],
      setup({ home, url, proxy, window }) {
        const rx = join(home, ".reasonix");
        write(join(rx, "config.toml"), [
          "config_version = 10",
          'default_model = "deepseek-flash"',
          "[telemetry]",
          'cli_metrics = "off"',
          "[permissions]",
          'mode = "allow"',
          "[sandbox]",
          'bash = "off"',
          "[[providers]]",
          'name = "deepseek-flash"',
          'kind = "openai"',
          `base_url = "${url}"`,
          'models = ["deepseek-v4-flash"]',
          'default = "deepseek-v4-flash"',
          'api_key_env = "DEEPSEEK_API_KEY"',
          `context_window = ${window ?? DEEPSEEK_WINDOW}`,
          'thinking = "enabled"',
          "",
        ].join("\n"));
        write(join(rx, ".env"), `DEEPSEEK_API_KEY=${API_KEY}\n`);
        return { ...baseEnv(home, proxy), REASONIX_HOME: rx };
      },
      argv: (prompt, resume) => ["run", ...(resume ? ["-c"] : []), prompt],
    },
    {
      id: "pi",
      label: "pi",
      cmd: binPath(peers, "pi"),
      versionArgs: ["--version"],
      setup({ home, url, proxy, window }) {
        const dir = join(home, ".pi", "agent");
        const provider = { baseUrl: url, compat: { supportsDeveloperRole: false, supportsStore: false } };
        if (window) provider.modelOverrides = { "deepseek-v4-flash": { contextWindow: window } };
        write(join(dir, "models.json"), JSON.stringify({ providers: { deepseek: provider } }, null, 2));
        write(join(dir, "settings.json"), JSON.stringify({ enableInstallTelemetry: false }, null, 2));
        return { ...baseEnv(home, proxy), PI_CODING_AGENT_DIR: dir, DEEPSEEK_API_KEY: API_KEY, PI_OFFLINE: "1", PI_TELEMETRY: "0", PI_SKIP_VERSION_CHECK: "1" };
      },
      argv: (prompt, resume) => ["--provider", "deepseek", "--model", "deepseek-v4-flash", ...(resume ? ["-c"] : []), "-p", prompt],
    },
    {
      id: "opencode",
      label: "opencode",
      cmd: binPath(peers, "opencode"),
      versionArgs: ["--version"],
      setup({ home, url, proxy, window }) {
        const provider = { options: { baseURL: url } };
        if (window) provider.models = { "deepseek-flash": { limit: { context: window, output: 32_000 } } };
        write(join(home, ".config", "opencode", "opencode.json"), JSON.stringify({ $schema: "https://opencode.ai/config.json", autoupdate: false, share: "disabled", provider: { deepseek: provider }, permission: { edit: "allow", bash: "allow", webfetch: "deny" } }, null, 2));
        return {
          ...baseEnv(home, proxy),
          DEEPSEEK_API_KEY: API_KEY,
          OPENCODE_DISABLE_AUTOUPDATE: "1",
          OPENCODE_DISABLE_MODELS_FETCH: "1",
          OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
          OPENCODE_DISABLE_SHARE: "1",
          OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
        };
      },
      argv: (prompt, resume) => ["run", "--model", "deepseek/deepseek-flash", ...(resume ? ["--continue"] : []), prompt],
    },
    {
      id: "claude",
      label: "Claude Code",
      cmd: binPath(peers, "claude"),
      versionArgs: ["--version"],
      protocol: "anthropic",
      setup({ home, url, proxy, window }) {
        return {
          ...baseEnv(home, proxy),
          CLAUDE_CONFIG_DIR: join(home, ".claude"),
          ANTHROPIC_BASE_URL: `${url}/anthropic`,
          ANTHROPIC_AUTH_TOKEN: API_KEY,
          ANTHROPIC_MODEL: "deepseek-flash[1m]",
          ANTHROPIC_DEFAULT_OPUS_MODEL: "deepseek-flash[1m]",
          ANTHROPIC_DEFAULT_SONNET_MODEL: "deepseek-flash[1m]",
          ANTHROPIC_DEFAULT_HAIKU_MODEL: "deepseek-flash",
          CLAUDE_CODE_SUBAGENT_MODEL: "deepseek-flash",
          CLAUDE_CODE_EFFORT_LEVEL: "max",
          CLAUDE_CODE_AUTO_COMPACT_WINDOW: String(window ?? 786_432),
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
          DISABLE_AUTOUPDATER: "1",
          DISABLE_TELEMETRY: "1",
          DISABLE_ERROR_REPORTING: "1",
          DISABLE_BUG_COMMAND: "1",
        };
      },
      argv: (prompt, resume) => ["-p", prompt, ...(resume ? ["--continue"] : []), "--output-format", "json", "--allowedTools", "Bash,Read,Edit,Write,Grep,Glob"],
    },
  ];
}
