// A server's prompts as slash commands: `/mcp__<server>__<prompt> args…`. Arguments go by
// position (in the order the server lists them) or by name (`name=value`); quotes keep spaces
// in one argument. Tab completes an argument's value where the server offers completion, and
// offers `name=` for the arguments not given yet. The prompt's messages become the prompt of a
// turn: text as it is, embedded text resources with their URI, what is not text named.

import type { CommandSpec } from "../../src/contract/index.js";
import type { McpClient, McpPrompt } from "./client.js";
import type { JsonObject } from "./jsonrpc.js";
import { contentText } from "./results.js";

/** What a prompt command needs of its server (server.ts's Server has it); a view, so this file
 *  does not import server.ts, which imports this one. */
export interface PromptServer {
  readonly name: string;
  readonly client?: McpClient;
  readonly state: string;
  describe(): string;
}

export function promptCommand(server: PromptServer, name: string, prompt: McpPrompt): CommandSpec {
  const args = prompt.arguments ?? [];
  const hint = args.map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`)).join(" ");
  return {
    name,
    description: `${prompt.title ?? prompt.description ?? prompt.name} (MCP prompt of ${server.name})`,
    args: hint || undefined,
    print: true, // it makes a prompt: -p runs it as the turn
    run: async (ctx) => {
      const client = server.client;
      if (!client || server.state !== "connected") return ctx.print(`MCP server ${server.name} is not connected (${server.describe()})`);
      const parsed = parseArgs(ctx.args, args.map((a) => a.name));
      if ("error" in parsed) return ctx.print(`/${name}: ${parsed.error}. Usage: /${name} ${hint}`);
      const missing = args.filter((a) => a.required && !(a.name in parsed.values)).map((a) => a.name);
      if (missing.length) return ctx.print(`/${name} needs ${missing.join(", ")}. Usage: /${name} ${hint}`);
      let r: JsonObject;
      try {
        r = await client.getPrompt(prompt.name, parsed.values, ctx.signal);
      } catch (err) {
        return ctx.print(`/${name}: the server could not give the prompt (${(err as Error).message})`);
      }
      const text = promptText(server.name, r);
      if (!text.trim()) return ctx.print(`/${name}: the server's prompt is empty`);
      await ctx.submit(text);
    },
    complete: async (partial, words) => {
      const given = parseArgs(words.join(" "), args.map((a) => a.name));
      const values = "error" in given ? {} : given.values;
      const eq = partial.indexOf("=");
      const arg = eq > 0 ? args.find((a) => a.name === partial.slice(0, eq)) : args.filter((a) => !(a.name in values))[0];
      const out: string[] = [];
      if (eq < 0) out.push(...args.filter((a) => !(a.name in values)).map((a) => `${a.name}=`));
      if (arg && server.client) {
        const value = eq > 0 ? partial.slice(eq + 1) : partial;
        const found = await server.client.complete({ type: "ref/prompt", name: prompt.name }, { name: arg.name, value }, values).catch(() => []);
        out.push(...found.map((v) => (eq > 0 ? `${arg.name}=${quote(v)}` : quote(v))));
      }
      return out;
    },
  };
}

/** Words of a command line: `"…"` and `'…'` keep spaces; `name=value` names an argument. */
export function parseArgs(line: string, names: readonly string[]): { values: Record<string, string> } | { error: string } {
  const words: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (const m of line.matchAll(re)) words.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, "$1") : (m[2] ?? m[3]));
  const values: Record<string, string> = {};
  const positional: string[] = [];
  for (const w of words) {
    const eq = w.indexOf("=");
    const key = eq > 0 ? w.slice(0, eq) : "";
    if (key && names.includes(key)) values[key] = unquote(w.slice(eq + 1));
    else positional.push(w);
  }
  const free = names.filter((n) => !(n in values));
  if (positional.length > free.length) {
    // More words than arguments: the rest belongs to the last one (a sentence as its value).
    if (free.length === 0) return { error: `it takes ${names.length ? names.join(", ") : "no arguments"}` };
    const last = positional.splice(free.length - 1).join(" ");
    positional.push(last);
  }
  positional.forEach((v, i) => (values[free[i]] = v));
  return { values };
}

/** The prompt's messages as one prompt for the model. */
export function promptText(server: string, r: JsonObject): string {
  const messages = Array.isArray(r.messages) ? r.messages : [];
  const left: string[] = [];
  const parts: string[] = [];
  const roles = new Set(messages.map((m) => (m && typeof m === "object" && !Array.isArray(m) ? String(m.role) : "user")));
  for (const m of messages) {
    if (!m || typeof m !== "object" || Array.isArray(m)) continue;
    const c = m.content;
    const blocks = Array.isArray(c) ? c : [c];
    const text = blocks
      .map((b) => (b && typeof b === "object" && !Array.isArray(b) ? contentText(server, b, left) : undefined))
      .filter((t): t is string => t !== undefined)
      .join("\n\n");
    if (!text) continue;
    parts.push(roles.size > 1 ? `[${String(m.role)}]\n${text}` : text);
  }
  if (left.length) parts.push(`[deepcode left out what the model cannot read: ${left.join("; ")}]`);
  return parts.join("\n\n");
}

function unquote(s: string): string {
  return /^".*"$|^'.*'$/.test(s) ? s.slice(1, -1) : s;
}

function quote(s: string): string {
  return /\s/.test(s) ? `"${s.replace(/"/g, '\\"')}"` : s;
}
