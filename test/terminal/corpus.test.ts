// The corpus: terminal escapes in every place deepcode shows someone else's text, judged by the
// bytes that reach the terminal. A byte sequence "acts" when it is anything but plain text,
// `\n`, `\t` or one of deepcode's own colour codes — or one of its own control sequences sent
// through control(). Every payload in every place must be stopped. The count is printed
// (tried/stopped) for the closing note.
import { afterAll, describe, expect, it } from "vitest";
import { Writable } from "node:stream";
import { TurnRenderer } from "../../src/cli/render/turn.js";
import { makeStyle } from "../../src/cli/render/style.js";
import { CONTROL, guardTerminal, terminalSafe } from "../../src/cli/render/terminal.js";
import { progressLine } from "../../src/cli/render/progress.js";
import { registerConfirm } from "../../src/cli/repl/confirm.js";
import { registerPersonAsk } from "../../src/cli/repl/ask.js";
import { inert } from "../../src/lib/inert.js";
import { withoutUnsafe } from "../../src/cli/complete.js";
import type { StreamEvent } from "../../src/contract/index.js";

export const PAYLOADS: Record<string, string> = {
  "CR + erase line": "\r\x1b[2K",
  "OSC 0 title (BEL)": "\x1b]0;PWNED\x07",
  "OSC 2 title (ST)": "\x1b]2;PWNED\x1b\\",
  "OSC 8 hyperlink": "\x1b]8;;http://evil.example/\x1b\\click\x1b]8;;\x1b\\",
  "OSC 52 clipboard": "\x1b]52;c;Y3VybCBldmlsfHNo\x07",
  "clear screen": "\x1b[2J\x1b[H",
  "clear scrollback": "\x1b[3J",
  "cursor up": "\x1b[1A",
  "cursor position": "\x1b[10;1H",
  "save/restore cursor": "\x1b7\x1b8",
  "conceal": "\x1b[8mhidden\x1b[0m",
  "black on black": "\x1b[30;40mhidden",
  "truecolour bg": "\x1b[48;2;0;0;0m",
  "alt screen": "\x1b[?1049h",
  "status report (reply into input)": "\x1b[6n",
  "terminal reset": "\x1bc",
  "DCS": "\x1bP+q544e\x1b\\",
  "C1 CSI": "\u009b2J",
  "C1 OSC": "\u009d0;PWNED\u0007",
  "BEL": "\x07",
  "backspaces": "abc\b\b\b",
  "NUL and DEL": "\x00\x7f",
  "bidi override": "\u202eevil\u202c",
  "bidi isolate": "\u2066x\u2069",
  "RLM": "\u200f",
};

const ALLOWED_SGR = /\x1b\[(?:[0-9]{1,2})(?:;[0-9]{1,2})*m/g;
const ACTS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;

/** Whether what reached the terminal could act on it (beyond deepcode's colours). */
function acts(bytes: string): boolean {
  const rest = bytes.replace(ALLOWED_SGR, (m) => (m.slice(2, -1).split(";").every((p) => ["0", "1", "2", "3", "4", "22", "23", "24", "31", "32", "33", "34", "35", "36", "39", "90"].includes(p)) ? "" : m));
  return ACTS.test(rest);
}

/** A terminal stand-in: guarded like process.stdout; control() sequences recorded apart. */
function terminal(guarded = true): { out: NodeJS.WriteStream; text: () => string; controls: string[] } {
  let text = "";
  const controls: string[] = [];
  const w = new Writable({ write(_chunk, _enc, cb) { cb(); } }) as unknown as NodeJS.WriteStream;
  // The raw path: what guardTerminal keeps as the original write is this recorder.
  w.write = ((c: unknown) => {
    const s = String(c);
    if ((Object.values(CONTROL) as string[]).includes(s)) controls.push(s);
    else text += s;
    return true;
  }) as typeof w.write;
  if (guarded) guardTerminal(w, true);
  return { out: w, text: () => text, controls };
}

let tried = 0;
let stopped = 0;
const failures: string[] = [];
function judge(place: string, name: string, bytes: string): void {
  tried++;
  if (acts(bytes)) failures.push(`${place} / ${name}`);
  else stopped++;
}
afterAll(() => {
  console.log(`terminal corpus: ${tried} tried, ${stopped} stopped${failures.length ? `; through: ${failures.join(", ")}` : ""}`);
});

const style = makeStyle(true);
const tool = (callId: string, output: Extract<StreamEvent, { type: "tool.end" }>["output"]): StreamEvent => ({ type: "tool.end", sessionId: "s", callId, tool: "Bash", output } as unknown as StreamEvent);

/** Each place a turn shows someone else's text, as the stream events that carry it. */
const TURN_PLACES: Record<string, (p: string) => StreamEvent[]> = {
  "model text": (p) => [{ type: "model.delta", delta: { kind: "content", text: `hello ${p} world` } } as unknown as StreamEvent],
  "model text split mid-escape": (p) => [...p].map((ch) => ({ type: "model.delta", delta: { kind: "content", text: ch } }) as unknown as StreamEvent),
  "reasoning (folded)": (p) => [{ type: "model.delta", delta: { kind: "reasoning", text: p } } as unknown as StreamEvent, { type: "model.response" } as unknown as StreamEvent],
  "tool call input (command)": (p) => [{ type: "tool.start", callId: "1", tool: "Bash", input: { command: `ls ${p}` } } as unknown as StreamEvent],
  "tool call input (file name)": (p) => [{ type: "tool.start", callId: "1", tool: "Read", input: { file_path: `a${p}.txt` } } as unknown as StreamEvent],
  "tool name (MCP)": (p) => [{ type: "tool.start", callId: "1", tool: `mcp__x__${p}`, input: {} } as unknown as StreamEvent],
  "tool progress (MCP)": (p) => [{ type: "tool.start", callId: "1", tool: "T", input: {} } as unknown as StreamEvent, { type: "tool.progress", callId: "1", message: p } as unknown as StreamEvent],
  "tool summary": (p) => [tool("1", { content: "x", summary: `Read ${p}` })],
  "tool error": (p) => [tool("1", { content: `boom ${p}`, isError: true })],
  "denial reason (hook)": (p) => [tool("1", { content: "", summary: "Bash", meta: { outcome: "denied", by: "hook", reason: `because ${p}` } })],
  "notice (hook/plugin output)": (p) => [{ type: "notice", level: "warn", message: `hook said ${p}` } as unknown as StreamEvent],
  "repair detail": (p) => [{ type: "repair", kind: "json", detail: p } as unknown as StreamEvent],
  "retry reason": (p) => [{ type: "model.delta", delta: { kind: "retry", reason: p, delayMs: 1000, attempt: 1 } } as unknown as StreamEvent],
  "turn error": (p) => [{ type: "turn.complete", stopReason: "error", error: `API said ${p}` } as unknown as StreamEvent],
};

describe("every place a turn shows text: nothing acts on the terminal", () => {
  // Unguarded too: the renderer makes each part inert where it composes it, so a stream that is
  // not a guarded TTY (a test's, an embedder's) gets no escape either.
  for (const [place, events] of Object.entries(TURN_PLACES)) {
    for (const [showThinking, guarded] of [[false, true], [true, true], [false, false], [true, false]]) {
      it(`${place}${showThinking ? " (/think on)" : ""}${guarded ? "" : " (unguarded stream)"}`, () => {
        for (const [name, p] of Object.entries(PAYLOADS)) {
          const t = terminal(guarded);
          const r = new TurnRenderer({ out: t.out, style, showThinking, live: true });
          for (const ev of events(p)) r.handle(ev);
          r.handle({ type: "model.delta", delta: { kind: "reasoning", text: p } } as unknown as StreamEvent);
          r.handle({ type: "turn.complete", stopReason: "completed" } as unknown as StreamEvent);
          judge(`${place}${guarded ? "" : " unguarded"}`, name, t.text());
          // Shown, not dropped: the person sees that something was there.
          if (/[\x1b\u009b\u009d\u202e]/.test(p) && !/reasoning/.test(place) && !showThinking) expect(t.text()).toMatch(/\\x1b|\\x9b|\\x9d|\\u202e/);
        }
        expect(failures.filter((f) => f.startsWith(`${place}${guarded ? "" : " unguarded"} /`))).toEqual([]);
      });
    }
  }
});

describe("the questions: a permission prompt and a person.ask (MCP elicitation)", () => {
  const keys = { active: true, ask: async () => ({ kind: "key", key: "n" }), lineKey: async () => ({ kind: "interrupt" }) };
  type Handler = (e: unknown) => Promise<unknown>;
  const chainOf = (): { chain: never; handler: () => Handler } => {
    let h: Handler | undefined;
    const chain = { on: (_t: string, _n: string, _ty: string, _f: unknown, fn: Handler) => ((h = fn), () => undefined) };
    return { chain: chain as never, handler: () => h! };
  };

  it("the permission prompt shows the command, the reason, the rule and the agent inert", async () => {
    for (const [name, p] of Object.entries(PAYLOADS)) {
      const t = terminal(false);
      const c = chainOf();
      registerConfirm({ chain: c.chain, keys: keys as never, rules: { add: () => undefined } as never, out: t.out, style });
      await c.handler()({ type: "permission.ask", tool: `Bash${p}`, preview: `npm test ${p} touch PWNED`, reason: `rule ${p}`, remember: `Bash(npm${p}:*)`, agent: { name: `a${p}`, task: `t${p}` } });
      judge("permission prompt", name, t.text());
      expect(t.text()).toContain("touch PWNED");
      expect(t.controls.every((x) => x === CONTROL.clearLine)).toBe(true);
    }
    expect(failures.filter((f) => f.startsWith("permission prompt"))).toEqual([]);
  });

  it("an elicitation's title, message, choices and fields are inert", async () => {
    for (const [name, p] of Object.entries(PAYLOADS)) {
      const t = terminal(false);
      const c = chainOf();
      registerPersonAsk({ chain: c.chain, keys: keys as never, out: t.out, style });
      await c.handler()({ type: "person.ask", kind: "mcp.elicitation", from: "mcp:x", title: `The MCP server asks ${p}`, detail: [`Paste your token ${p}\nsecond line ${p}`] });
      await c.handler()({ type: "person.ask", kind: "x", from: "plugin:x", title: "pick", detail: [], choices: [{ key: "g", label: `go ${p}` }] });
      judge("person.ask", name, t.text());
    }
    expect(failures.filter((f) => f.startsWith("person.ask"))).toEqual([]);
  });
});

describe("the gate itself (every other writer: -p progress on stderr, subcommands, warnings)", () => {
  it("stops every payload in a -p progress line and in any text written to a guarded stream", () => {
    for (const [name, p] of Object.entries(PAYLOADS)) {
      const line = progressLine({ type: "tool.end", sessionId: "s", callId: "1", tool: "Bash", output: { content: "", summary: `Read ${p}` } } as unknown as StreamEvent) ?? "";
      judge("-p progress line", name, terminalSafe(line));
      const t = terminal();
      t.out.write(`warning: ${p}\n`);
      t.out.write(Buffer.from(`buffer ${p}`));
      judge("guarded write", name, t.text());
    }
    expect(failures).toEqual([]);
  });

  it("leaves out Tab completions readline would print raw (a file named to act on the terminal)", () => {
    for (const [name, p] of Object.entries(PAYLOADS)) {
      const [shown] = withoutUnsafe([[`@notes${p}.md`, "@readme.md"], "@"]);
      judge("Tab completion", name, shown.join(" "));
      expect(shown).toEqual(["@readme.md"]);
    }
  });

  it("keeps deepcode's own colours and layout, and is idempotent", () => {
    const own = `${style(["bold", "yellow"], "? title")}\n\t${style("dim", "x")} ${style("cyan", "y")} ${style("red", "z")}`;
    expect(terminalSafe(own)).toBe(own);
    const once = terminalSafe(`a\x1b]0;t\x07b\r\n`);
    expect(terminalSafe(once)).toBe(once);
    expect(once).toBe("a\\x1b]0;t\\x07b\\x0d\n");
    expect(inert("a\nb")).toBe("a\\x0ab");
  });
});
