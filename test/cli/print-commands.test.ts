// `deepcode -p "/name args"` runs a contributed command when its spec says it may (the
// contract's CommandSpec.print), whoever contributed it — not by a list of names in the CLI.
import { describe, expect, it } from "vitest";
import type { CommandSpec } from "../../src/contract/index.js";
import { CommandRegistry } from "../../src/core/commands.js";
import { pluginCommandLine, runPluginCommand } from "../../src/cli/print-commands.js";

function registry(...specs: Array<[CommandSpec, string]>): CommandRegistry {
  const r = new CommandRegistry();
  for (const [spec, source] of specs) r.add(spec, source);
  return r;
}

const shows = (name: string, print?: CommandSpec["print"]): CommandSpec => ({ name, description: name, ...(print !== undefined ? { print } : {}), run: (ctx) => ctx.print(`${name} ran with '${ctx.args}'`) });

describe("a contributed command in -p", () => {
  it("runs when its spec says it may, from any plugin, and its printout is the result", async () => {
    const r = registry([shows("weather", true), "my-plugin"]);
    const found = await pluginCommandLine("/weather Paris", r);
    expect(found?.command.spec.name).toBe("weather");
    const out = await runPluginCommand(found!.command, found!.args, { sessionId: "s", signal: new AbortController().signal, turn: async () => "turn" });
    expect(out.printed).toBe("weather ran with 'Paris'");
  });

  it("stays the REPL's when its spec does not say so (even the skills mod's or an mcp__ name)", async () => {
    const r = registry([shows("deploy"), "my-plugin"], [shows("pdf"), "skills"], [shows("mcp__srv__p"), "mcp"]);
    expect(await pluginCommandLine("/deploy now", r)).toBeUndefined();
    expect(await pluginCommandLine("/pdf x", r)).toBeUndefined();
    expect(await pluginCommandLine("/mcp__srv__p", r)).toBeUndefined();
  });

  it("asks the spec about these arguments when it answers per arguments", async () => {
    const r = registry([shows("servers", (args) => !/\bapprove\b/.test(args)), "my-plugin"]);
    expect(await pluginCommandLine("/servers", r)).toBeDefined();
    expect(await pluginCommandLine("/servers github", r)).toBeDefined();
    expect(await pluginCommandLine("/servers approve github", r)).toBeUndefined();
  });

  it("finds a name that appears while the commands settle (an MCP prompt once its server connects)", async () => {
    const r = new CommandRegistry();
    const asked: string[] = [];
    r.add({
      ...shows("servers", true),
      settle: async (name) => {
        asked.push(name);
        await new Promise((res) => setTimeout(res, 5));
        if (name === "late__prompt") r.add(shows("late__prompt", true), "my-plugin");
      },
    }, "my-plugin");
    const found = await pluginCommandLine("/late__prompt a b", r);
    expect(asked).toEqual(["late__prompt"]);
    expect(found?.command.spec.name).toBe("late__prompt");
    expect(found?.args).toBe("a b");
    expect(await pluginCommandLine("/never", r)).toBeUndefined();
  });
});
