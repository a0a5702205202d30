// What "request N+1 = request N + reply N + new tail, byte for byte" means, checked on the
// requests the simulator recorded (their exact bytes as sent).
import type { SimRequest } from "../sim/server.mjs";

interface Body {
  messages: Array<Record<string, unknown>>;
  tools?: unknown[];
}

export interface ExtensionBreak {
  index: number;
  why: string;
}

/** Chat requests that reached the model (status 200), parsed. */
export function chatBodies(requests: readonly SimRequest[]): Body[] {
  return requests.filter((r) => r.path.endsWith("/chat/completions") && r.status === 200).map((r) => JSON.parse(r.body) as Body);
}

/** For each consecutive pair, whether the later request extends the earlier one + its reply. */
export function extensionBreaks(bodies: Body[], replies: Array<Record<string, unknown> | undefined>): ExtensionBreak[] {
  const out: ExtensionBreak[] = [];
  for (let i = 1; i < bodies.length; i++) {
    const a = bodies[i - 1];
    const b = bodies[i];
    if (JSON.stringify(a.tools) !== JSON.stringify(b.tools)) {
      out.push({ index: i, why: "tools differ" });
      continue;
    }
    const n = a.messages.length;
    const prefixSame = b.messages.length > n && a.messages.every((m, k) => JSON.stringify(m) === JSON.stringify(b.messages[k]));
    if (!prefixSame) {
      const k = a.messages.findIndex((m, j) => JSON.stringify(m) !== JSON.stringify(b.messages[j]));
      out.push({ index: i, why: `message ${k} differs or is missing` });
      continue;
    }
    const reply = replies[i - 1];
    const next = b.messages[n];
    // A digest request (compaction) is request N + one instruction, without reply N.
    if (reply && next.role === "assistant") {
      const sameText = (next.content ?? "") === (reply.content ?? "");
      const sameCalls = JSON.stringify(((next.tool_calls as unknown[]) ?? []).map(callKey)) === JSON.stringify(((reply.tool_calls as unknown[]) ?? []).map(callKey));
      if (!sameText || !sameCalls) out.push({ index: i, why: "the reply in the log is not the reply that was sent" });
    }
  }
  return out;
}

function callKey(c: unknown): string {
  const f = (c as { function: { name: string; arguments: string } }).function;
  return `${f.name}:${f.arguments}`;
}
