// `deepcode mcp …`: manage MCP servers from the shell, with Claude Code's syntax.
//   list | get NAME | approve NAME     what the mcp mod reports (it connects to check)
//   add [options] NAME -- CMD [ARGS…]  a stdio server
//   add --transport http|sse NAME URL  a remote server
//   add-json NAME JSON                 a server given as JSON
//   remove NAME [--scope S]
// --scope local (default: yours, this project: ~/.deepcode/mcp.json under the project's path),
// project (.mcp.json, shared with the repository), user (~/.deepcode/mcp.json, every project).

import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { parseArgs } from "node:util";
import type { JsonValue, SubcommandContext, SubcommandSpec } from "../../src/contract/index.js";
import { parsed, projectMcpFile, readOptional, userMcpFile } from "./configure/sources.js";
import { projectStoreKey } from "../../src/lib/project-store.js";
import { withFileLock } from "../../src/lib/file-lock.js";
import { writeWholeSync } from "../../src/lib/whole-file.js";
import { isObject } from "../../src/lib/json.js";
import { badServerName } from "./configure/index.js";

export const MCP_HELP = `deepcode mcp — MCP servers (Claude Code's configuration format)

  deepcode mcp list                         every server, where it is configured, and its state
                                            (list/get/approve take --mcp-config F… and --strict-mcp-config)
  deepcode mcp get NAME                     one server: command or URL, tools, prompts, stderr
  deepcode mcp approve NAME                 (in the REPL: /mcp approve NAME) start a project server
  deepcode mcp login NAME                   sign in to a remote server (OAuth; opens a browser or prints the URL)
  deepcode mcp logout NAME                  forget a remote server's sign-in (its tokens and registration)
  deepcode mcp add [-s SCOPE] [-e KEY=VALUE]… NAME -- COMMAND [ARGS…]
  deepcode mcp add [-s SCOPE] --transport http|sse [-H "Name: value"]… NAME URL
  deepcode mcp add-json [-s SCOPE] NAME '{"command": …}'
  deepcode mcp remove [-s SCOPE] NAME

Scopes (-s, --scope): local (default; yours, this project only), project (.mcp.json in the
repository: shared, needs workspace trust and each person's approval), user (yours, every
project). ~/.deepcode/mcp.json holds local and user servers; \${VAR} and \${VAR:-default}
expand in command, args, env, url and headers.
`;

type Scope = "local" | "project" | "user";

/** `--mcp-config` / `--strict-mcp-config` given after the verb. */
export interface ConfigFlags {
  mcpConfig?: string[];
  strictMcpConfig?: boolean;
}

export interface McpCommandDeps {
  root: string;
  home: string;
  /** list, get, approve, login, logout: the mod's `/mcp` over these servers (the run's, plus
   *  the servers of flags given after the verb); resolves to the exit code. */
  viaMod(verb: string, rest: readonly string[], flags: ConfigFlags, ctx: SubcommandContext): Promise<number>;
}

/** `deepcode mcp …` (PluginApi.subcommand; the SUBCOMMANDS row in src/cli/options.ts says
 *  `mod: true`). It runs after assembly, so this mod's configuration is already read. */
export function mcpSubcommand(d: McpCommandDeps): SubcommandSpec {
  return {
    name: "mcp",
    description: "MCP servers: list, get, approve, login, logout, add, add-json, remove (deepcode mcp --help)",
    usage: "VERB …",
    run: (args, ctx) => runMcp([...args], d, ctx),
  };
}

async function runMcp(args: string[], d: McpCommandDeps, ctx: SubcommandContext): Promise<number> {
  const [verb, ...rest] = args;
  if (!verb || verb === "--help" || verb === "-h" || verb === "help") {
    ctx.out(MCP_HELP);
    return verb ? 0 : 2;
  }
  const w: Writer = { ctx, root: d.root, home: d.home };
  try {
    switch (verb) {
      case "list":
      case "get":
      case "approve":
      case "login":
      case "logout": {
        const own = configFlags(rest);
        if ("error" in own) return usage(ctx, own.error);
        const wrong = wrongWords(verb, own.rest);
        if (wrong) return usage(ctx, wrong);
        return await d.viaMod(verb, own.rest, own.options, ctx);
      }
      case "add":
        return add(rest, w);
      case "add-json":
        return addJson(rest, w);
      case "remove":
        return remove(rest, w);
      default:
        return usage(ctx, `unknown subcommand '${verb}'`);
    }
  } catch (err) {
    if (String((err as NodeJS.ErrnoException).code).startsWith("ERR_PARSE_ARGS")) return usage(ctx, (err as Error).message);
    throw err;
  }
}

/** Where add/remove write, and where they say what they did. */
interface Writer {
  ctx: SubcommandContext;
  root: string;
  home: string;
}

/** `--mcp-config FILE|JSON…` (every word up to the next option, repeatable; also `=`) and
 *  `--strict-mcp-config` after the verb, as the session's own flags take them; the rest stays. */
function configFlags(args: readonly string[]): { options: ConfigFlags; rest: string[] } | { error: string } {
  const mcpConfig: string[] = [];
  const rest: string[] = [];
  let strict = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--strict-mcp-config") strict = true;
    else if (a.startsWith("--mcp-config=")) mcpConfig.push(a.slice("--mcp-config=".length));
    else if (a === "--mcp-config") {
      const start = mcpConfig.length;
      while (i + 1 < args.length && !args[i + 1].startsWith("--")) mcpConfig.push(args[++i]);
      if (mcpConfig.length === start) return { error: "--mcp-config needs a file or a JSON text" };
    } else rest.push(a);
  }
  return { options: { ...(mcpConfig.length ? { mcpConfig } : {}), ...(strict ? { strictMcpConfig: true } : {}) }, rest };
}

/** What is wrong with the words after list/get/approve/login/logout once the config flags are
 *  taken (an option none of them has, a name list does not take or the others need), or "". */
function wrongWords(verb: string, rest: readonly string[]): string {
  const option = rest.find((w) => w.startsWith("-"));
  if (option) return `unknown option '${option}' for mcp ${verb} (it takes --mcp-config F… and --strict-mcp-config)`;
  if (verb === "list") return rest.length ? `mcp list takes no server name (got '${rest.join(" ")}'); use: deepcode mcp get NAME` : "";
  if (rest.length !== 1) return `mcp ${verb} takes one server name${rest.length ? ` (got ${rest.length}: ${rest.join(" ")})` : ""}`;
  return "";
}

const ADD_OPTIONS = {
  scope: { type: "string", short: "s" },
  transport: { type: "string", short: "t" },
  env: { type: "string", short: "e", multiple: true },
  header: { type: "string", short: "H", multiple: true },
} as const;

function add(args: string[], w: Writer): number {
  const dash = args.indexOf("--");
  const own = dash < 0 ? args : args.slice(0, dash);
  const { values, positionals } = parseArgs({ args: own, options: ADD_OPTIONS, allowPositionals: true, strict: true });
  const scope = scopeOf(values.scope);
  if (!scope) return usage(w.ctx, `--scope must be local, project or user, not '${values.scope}'`);
  const transport = values.transport ?? "stdio";
  const [name, ...more] = positionals;
  if (!name) return usage(w.ctx, "deepcode mcp add needs a NAME");
  const bad = badServerName(name);
  if (bad) return usage(w.ctx, `MCP server ${bad}`);
  let server: { [k: string]: JsonValue };
  if (transport === "http" || transport === "sse") {
    const url = more[0] ?? (dash >= 0 ? args[dash + 1] : undefined);
    if (!url || !/^https?:\/\//.test(url)) return usage(w.ctx, `--transport ${transport} needs a URL (http:// or https://) after the name`);
    server = { type: transport, url };
    const headers = pairs(values.header ?? [], ":");
    if ("error" in headers) return usage(w.ctx, `--header ${headers.error}`);
    if (Object.keys(headers.map).length) server.headers = headers.map;
  } else if (transport === "stdio") {
    const command = dash >= 0 ? args.slice(dash + 1) : more;
    if (command.length === 0) return usage(w.ctx, "a stdio server needs its command: deepcode mcp add NAME -- COMMAND [ARGS…]");
    server = { command: command[0], args: command.slice(1) };
    const env = pairs(values.env ?? [], "=");
    if ("error" in env) return usage(w.ctx, `--env ${env.error}`);
    if (Object.keys(env.map).length) server.env = env.map;
  } else return usage(w.ctx, `--transport must be stdio, http or sse, not '${transport}'`);
  return write(scope, name, server, w);
}

function addJson(args: string[], w: Writer): number {
  const { values, positionals } = parseArgs({ args, options: { scope: ADD_OPTIONS.scope }, allowPositionals: true, strict: true });
  const scope = scopeOf(values.scope);
  if (!scope) return usage(w.ctx, `--scope must be local, project or user, not '${values.scope}'`);
  const [name, json] = positionals;
  if (!name || !json) return usage(w.ctx, "deepcode mcp add-json NAME JSON");
  const bad = badServerName(name);
  if (bad) return usage(w.ctx, `MCP server ${bad}`);
  const v = parsed(json, "the JSON argument");
  if (!isObject(v)) return usage(w.ctx, "the server's JSON must be an object");
  return write(scope, name, v, w);
}

function remove(args: string[], w: Writer): number {
  const { root, home } = w;
  const { values, positionals } = parseArgs({ args, options: { scope: ADD_OPTIONS.scope }, allowPositionals: true, strict: true });
  const [name] = positionals;
  if (!name) return usage(w.ctx, "deepcode mcp remove NAME");
  const scopes: Scope[] = values.scope ? [scopeOf(values.scope)].filter((s): s is Scope => s !== undefined) : ["local", "project", "user"];
  if (scopes.length === 0) return usage(w.ctx, `--scope must be local, project or user, not '${values.scope}'`);
  const holding = scopes.filter((s) => name in serversIn(load(s, root, home), s, root));
  if (holding.length === 0) {
    w.ctx.err(`deepcode: no MCP server named ${name}${values.scope ? ` in the ${values.scope} scope` : ""}\n`);
    return 1;
  }
  if (holding.length > 1) return usage(w.ctx, `${name} is in several scopes (${holding.join(", ")}): say which with --scope`);
  const s = holding[0];
  edit(s, root, home, (file) => delete serversIn(file, s, root)[name]);
  w.ctx.out(`Removed MCP server ${name} (${s} scope, ${s === "project" ? projectMcpFile(root) : userMcpFile(home)})\n`);
  return 0;
}

function write(scope: Scope, name: string, server: { [k: string]: JsonValue }, w: Writer): number {
  const { root, home } = w;
  if (!/^[A-Za-z0-9_.-]+$/.test(name)) return usage(w.ctx, `a server name is letters, digits, _ . and - (not '${name}')`);
  const existed = edit(scope, root, home, (file) => {
    const servers = serversIn(file, scope, root);
    const had = name in servers;
    servers[name] = server;
    return had;
  });
  const where = scope === "project" ? projectMcpFile(root) : userMcpFile(home);
  w.ctx.out(`${existed ? "Replaced" : "Added"} MCP server ${name} (${scope} scope, ${where})\n`);
  if (scope === "project") w.ctx.out("Project servers start once the project is trusted and each person approves them.\n");
  return 0;
}

function load(scope: Scope, root: string, home: string): { [k: string]: JsonValue } {
  const path = scope === "project" ? projectMcpFile(root) : userMcpFile(home);
  const text = readOptional(path);
  if (text === undefined) return {};
  const v = parsed(text, path);
  return isObject(v) ? v : {};
}

/** The object holding this scope's servers, created where missing (edits go into `file`). */
function serversIn(file: { [k: string]: JsonValue }, scope: Scope, root: string): { [k: string]: JsonValue } {
  let holder = file;
  if (scope === "local") {
    if (!isObject(file.projects)) file.projects = {};
    const projects = file.projects as { [k: string]: JsonValue };
    const key = projectStoreKey(root);
    if (!isObject(projects[key])) projects[key] = {};
    holder = projects[key] as { [k: string]: JsonValue };
  }
  if (!isObject(holder.mcpServers)) holder.mcpServers = {};
  return holder.mcpServers as { [k: string]: JsonValue };
}

function save(scope: Scope, file: { [k: string]: JsonValue }, root: string, home: string): void {
  const path = scope === "project" ? projectMcpFile(root) : userMcpFile(home);
  // Your own file may hold tokens (headers, env): private. The project's is the repository's.
  writeWholeSync(path, `${JSON.stringify(file, null, 2)}\n`, scope === "project" ? { dirMode: 0o755 } : { mode: 0o600, dirMode: 0o700 });
}

/** Read, change and write a scope's file under its lock: another deepcode's edit of the same
 *  file (~/.claude.json is shared with Claude Code and every project) is kept. */
function edit<T>(scope: Scope, root: string, home: string, fn: (file: { [k: string]: JsonValue }) => T): T {
  const path = scope === "project" ? projectMcpFile(root) : userMcpFile(home);
  mkdirSync(dirname(path), { recursive: true, ...(scope === "project" ? {} : { mode: 0o700 }) });
  return withFileLock(path, () => {
    const file = load(scope, root, home);
    const out = fn(file);
    save(scope, file, root, home);
    return out;
  });
}

function scopeOf(s: string | undefined): Scope | undefined {
  if (s === undefined) return "local";
  return s === "local" || s === "project" || s === "user" ? s : undefined;
}

function pairs(list: readonly string[], sep: string): { map: Record<string, string> } | { error: string } {
  const map: Record<string, string> = {};
  for (const item of list) {
    const i = item.indexOf(sep);
    if (i <= 0) return { error: `'${item}' is not NAME${sep}VALUE` };
    map[item.slice(0, i).trim()] = item.slice(i + 1).trim();
  }
  return { map };
}

function usage(ctx: SubcommandContext, message: string): number {
  ctx.err(`deepcode: ${message}\nRun 'deepcode mcp --help' for usage.\n`);
  return 2;
}
