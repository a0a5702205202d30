// `deepcode -p --input-format stream-json`: user messages as JSON lines on stdin, one turn each,
// so a program holds a multi-turn conversation with one process (Claude Code's input format):
//
//   {"type":"user","message":{"role":"user","content":"fix the test"}}
//   {"type":"user","message":{"role":"user","content":[{"type":"text","text":"and run it"}]}}
//
// Blank lines are skipped. A line that is not such a message is an error the caller reports (a
// result line with is_error) before it reads on; the conversation is not lost for it.

import { createInterface } from "node:readline";

export type InputLine = { kind: "prompt"; text: string } | { kind: "bad"; line: number; message: string };

export async function* streamJsonInput(input: NodeJS.ReadableStream): AsyncGenerator<InputLine> {
  const rl = createInterface({ input, terminal: false, crlfDelay: Infinity });
  let n = 0;
  for await (const raw of rl) {
    n++;
    const line = raw.trim();
    if (!line) continue;
    yield parseInputLine(line, n);
  }
}

export function parseInputLine(line: string, n: number): InputLine {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch (err) {
    return { kind: "bad", line: n, message: `stdin line ${n} is not JSON (${(err as Error).message})` };
  }
  const o = v as { type?: unknown; message?: { role?: unknown; content?: unknown } };
  if (o?.type !== "user" || typeof o.message !== "object" || o.message === null) {
    return { kind: "bad", line: n, message: `stdin line ${n} is not a user message: expected {"type":"user","message":{"role":"user","content":…}}` };
  }
  const text = contentText(o.message.content);
  if (text === undefined) return { kind: "bad", line: n, message: `stdin line ${n}: message.content must be a string or a list of {"type":"text","text":…} blocks` };
  if (!text.trim()) return { kind: "bad", line: n, message: `stdin line ${n}: the message has no text` };
  return { kind: "prompt", text };
}

function contentText(c: unknown): string | undefined {
  if (typeof c === "string") return c;
  if (!Array.isArray(c)) return undefined;
  const parts: string[] = [];
  for (const b of c as Array<{ type?: unknown; text?: unknown }>) {
    if (b?.type === "text" && typeof b.text === "string") parts.push(b.text);
    else return undefined; // images, tool results: not something deepcode can take as a prompt
  }
  return parts.join("\n\n");
}
