// A scripted model for checkpoint tests: turn "turn K" writes fK.txt and appends line K to
// shared.txt (one round of calls), then answers "done K". Stateless: it finds the turn from the
// last prompt of that shape and the round from the assistant messages after it, so it answers a
// rewound or resumed conversation as well as a fresh one.
import type { Script } from "../sim/server.mjs";

type Message = { role: string; content?: string | null };

export function turnScript(extra: (k: number) => Array<{ name: string; arguments: object }> = () => []): Script {
  return {
    respond(json: { messages: Message[] }) {
      const m = json.messages;
      for (let i = m.length - 1; i >= 0; i--) {
        const hit = m[i].role === "user" ? /^turn (\d+)$/.exec(String(m[i].content ?? "")) : null;
        if (!hit) continue;
        const k = Number(hit[1]);
        const round = m.slice(i + 1).filter((x) => x.role === "assistant").length;
        if (round > 0) return { content: `done ${k}` };
        return {
          tool_calls: [
            { name: "Write", arguments: { file_path: `f${k}.txt`, content: `v${k}\n` } },
            { name: "Bash", arguments: { command: `echo line${k} >> shared.txt` } },
            ...extra(k),
          ],
        };
      }
      return { content: "ok" };
    },
  };
}

/** The flags that let those calls run in -p. */
// One word (`=`): the flag is variadic, as Claude Code's, so a prompt after it would be a value.
export const ALLOW = ["--allowedTools=Write,Edit,Bash"];

/** A Stop hook command that blocks a turn's first stop ("go on") and lets the next one through. */
export const STOP_ONCE = `input=$(cat); case "$input" in *'"stop_hook_active":true'*) exit 0 ;; *) echo '{"decision":"block","reason":"go on"}' ;; esac`;
