// The chain each front end runs, pinned: the REPL, `-p` and an editor's sessions (`deepcode acp`)
// are assembled over an empty home with what each front end hands assembly (FrontEnd), and the
// hooks on the events that decide — what a call may do, who answers a question, what a prompt
// becomes, what touches the disk or runs — are listed outermost first. A change of order shows
// here in review. `deepcode --events` prints that very chain for the front end it names.
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { assemble, BUILTIN_MODS, type AssembleOptions } from "../../src/cli/assemble.js";
import { describeEvents, frontEndOptions, type FrontEndName } from "../../src/cli/events-list.js";
import type { EventName, Placement } from "../../src/contract/index.js";

const DECIDING: EventName[] = [
  "tool.check", "permission.ask", "person.ask", "prompt.submit", "fs.read", "fs.write", "process.run",
];

function emptyHome(): AssembleOptions {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "deepcode-chain-")));
  const home = realpathSync(mkdtempSync(join(tmpdir(), "deepcode-chain-home-")));
  const env = { HOME: home, DEEPCODE_HOME: home, PATH: process.env.PATH };
  return { root, home, env, managedPath: join(home, "no-managed.json"), warn: () => undefined };
}

/** The pinned chains. The sandbox's hook is there where bubblewrap works on this machine. */
function expected(frontEnd: FrontEndName, sandbox: boolean): Record<string, string[]> {
  const asks = frontEnd === "repl"
    ? { "permission.ask": ["prepend:permissions", "prepend:acp", "builtin:repl"], "person.ask": ["builtin:repl"] }
    : {
        "permission.ask": ["prepend:permissions", "prepend:acp", "prepend:non-interactive"],
        "person.ask": ["prepend:non-interactive"],
      };
  return {
    "tool.check": ["prepend:permissions", "prepend:plan", "builtin:repair", "builtin:hookify"],
    ...asks,
    "prompt.submit": ["builtin:hookify", "builtin:mcp", "builtin:mentions"],
    "fs.read": ["prepend:permissions", "builtin:acp-io"],
    "fs.write": ["prepend:permissions", "prepend:plan", "builtin:checkpoints", "builtin:acp-io"],
    "process.run": ["prepend:plan", ...(sandbox ? ["builtin:sandbox"] : []), "builtin:acp-io"],
  };
}

/** The hooks column `deepcode --events` prints for each deciding event. */
function printed(text: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const line of text.split("\n")) {
    const m = /^(\S+)\s+(?:yes|no)\s+.+?\s{2}(\S.*)$/.exec(line);
    if (m && (DECIDING as string[]).includes(m[1])) out[m[1]] = m[2] === "-" ? [] : m[2].split(", ");
  }
  return out;
}

describe.each(["repl", "print", "acp"] as const)("the %s front end's chain", (frontEnd) => {
  it("runs the deciding events through the pinned hooks, and --events prints that chain", async () => {
    const app = await assemble({ ...emptyHome(), ...frontEndOptions(frontEnd) });
    const seen = Object.fromEntries(DECIDING.map((e) => [e, app.chain.hooksFor(e).map((h) => `${h.tier}:${h.owner}`)]));
    expect(seen).toEqual(expected(frontEnd, app.pluginStatus("sandbox")?.active === true));
    expect(printed(await describeEvents(emptyHome(), frontEnd))).toEqual(seen);
  });
});

describe("the innermost hook on process.run", () => {
  it("is claimed by one mod alone: the sandbox is after everything, and acp-io names the sandbox", async () => {
    const after: Record<string, readonly string[]> = {};
    for (const m of BUILTIN_MODS) {
      const file = new URL(`../../mods/${m.includes("/") ? m : `${m}/index`}.ts`, import.meta.url).href;
      type Mod = { default: { id: string; placement?: Placement } };
      const mod = (await import(/* @vite-ignore */ file)) as Mod;
      if (mod.default.placement?.after) after[mod.default.id] = mod.default.placement.after;
    }
    expect(Object.entries(after).filter(([, names]) => names.includes("*")).map(([id]) => id)).toEqual(["sandbox"]);
    expect(after["acp-io"]).toEqual(["sandbox"]);
  });
});
