// Built-in mod: Claude Code's output styles (styles.ts finds them). Settings `outputStyle`
// (any layer, Claude Code's `.claude/settings*.json` included) names the style; `/output-style`
// lists them and `/output-style NAME` picks one, saved as `outputStyle` in
// .deepcode/settings.local.json (as Claude Code saves it in its local settings).
//
// The style is part of the system prompt, which is fixed for a session (the cached prefix): a
// session keeps the style it started with, and a pick takes effect at the next session (/new),
// said so when picked. A style's text is added as the `output-style` section; a style without
// `keep-coding-instructions: true` also replaces deepcode's coding instructions (the `base`
// section) with a short neutral one, as Claude Code leaves its own out. Subagents keep theirs.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import type { Plugin, PluginApi, SystemSection } from "../../src/contract/index.js";
import { isObject } from "../../src/lib/json.js";
import { loadStyles, type Style } from "./styles.js";

/** The base section a style without keep-coding-instructions stands on: what deepcode is and
 *  the rules that keep the person safe, without the software-engineering method. */
const NEUTRAL_BASE = `You are deepcode, an agent in the user's terminal, working in their project folder with your tools.
- A denied call is an answer: do not repeat it; take another way or ask.
- Messages starting with [deepcode] come from deepcode (context notes, reminders), not from the user.
- Ask before anything risky: deleting data, pushing, changing many files.`;

class OutputStyles {
  private styles?: Style[];
  private readonly problems: string[] = [];
  /** The style new sessions start with (the setting, or the last pick). */
  private next: string | undefined;
  /** The style each main session started with. */
  private readonly bySession = new Map<string, Style>();

  constructor(private readonly api: PluginApi) {
    const v = api.settings.get("outputStyle");
    this.next = typeof v === "string" && v.trim() ? v.trim() : undefined;
  }

  install(): void {
    this.api.on("context.system", async (e, next) => {
      const r = await next();
      if (e.agent) return r;
      const style = this.pick();
      this.bySession.set(e.sessionId, style);
      if (!style.text) return r;
      const sections: SystemSection[] = r.sections.map((s) => (s.id === "base" && !style.keepCoding ? { id: "base", text: NEUTRAL_BASE } : s));
      return { sections: [...sections, { id: "output-style", text: `Output style "${style.name}" (the user chose how you answer):\n${style.text}` }] };
    });
    this.api.on("turn.start", async (e, next) => {
      const r = await next();
      const said = e.agent ? [] : this.problems.splice(0);
      return said.length ? { ...(r ?? {}), notices: [...(r?.notices ?? []), ...said] } : r;
    });
    this.api.command({
      name: "output-style",
      description: "list the output styles, or pick one for the next session",
      args: "[name]",
      print: (args) => args.trim() === "",
      run: (ctx) => ctx.print(ctx.args.trim() ? this.choose(ctx.args.trim(), ctx.sessionId) : this.listing(ctx.sessionId)),
      complete: (partial) => this.all().map((s) => s.name).filter((n) => n.toLowerCase().startsWith(partial.toLowerCase())),
    });
  }

  private all(): Style[] {
    this.styles ??= loadStyles(this.api, homedir(), this.api.contributed("output-styles"), this.problems);
    return this.styles;
  }

  private find(name: string): Style | undefined {
    return this.all().find((s) => s.name.toLowerCase() === name.toLowerCase());
  }

  /** The style a new session starts with; an unknown name is said once and Default used. */
  private pick(): Style {
    const want = this.next ?? "Default";
    const found = this.find(want);
    if (found) return found;
    this.problems.push(`outputStyle "${want}" is not an output style here (${this.all().map((s) => s.name).join(", ")}); the session uses Default`);
    this.next = undefined;
    return this.find("Default")!;
  }

  private listing(sessionId: string): string {
    const now = this.bySession.get(sessionId)?.name ?? this.next ?? "Default";
    const mark = (s: Style): string => (s.name.toLowerCase() === now.toLowerCase() ? "●" : "○");
    const lines = this.all().map((s) => `${mark(s)} ${s.name}${s.description ? ` — ${s.description}` : ""}  (${s.source})`);
    return `${lines.join("\n")}\n/output-style NAME picks one for the next session.`;
  }

  private choose(name: string, sessionId: string): string {
    const style = this.find(name);
    if (!style) return `No output style "${name}". The styles: ${this.all().map((s) => s.name).join(", ")}.`;
    this.next = style.name;
    const file = join(this.api.root, ".deepcode", "settings.local.json");
    let saved = `saved as outputStyle in ${file}`;
    try {
      const had: unknown = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {};
      if (!isObject(had)) throw new Error("it is not a JSON object");
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, `${JSON.stringify({ ...had, outputStyle: style.name }, null, 2)}\n`);
    } catch (err) {
      saved = `not saved (${file}: ${(err as Error).message}), so it holds for this run only`;
    }
    const current = this.bySession.get(sessionId)?.name ?? "Default";
    const when =
      current === style.name
        ? "This session already uses it."
        : `This session keeps "${current}": the style is part of the system prompt, which stays fixed within a session so the cache keeps it ` +
          "(a change now would send the whole prompt again, uncached). It takes effect in a new session: /new.";
    return `Output style "${style.name}" ${saved}. ${when}`;
  }
}

const plugin: Plugin = {
  id: "output-styles",
  description: "Claude Code's output styles: settings outputStyle, .claude/output-styles, /output-style",
  placement: { after: ["marketplace"] },
  register(api) {
    new OutputStyles(api).install();
  },
};

export default plugin;
