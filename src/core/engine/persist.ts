// What a session writes about itself beyond its turns: its opening record, and what its
// writer needs when the file was deleted or replaced under it (session/writer.ts): the
// records that rebuild the session as it stands (the log as one epoch), and a voice.

import type { AgentIdentity, ChatMessage, SystemSection } from "../../contract/index.js";
import type { Prefix } from "../context/prefix.js";
import type { SessionRecord } from "../session/store.js";
import type { WriterHooks } from "../session/writer.js";

export function sessionRecord(s: { id: string; root: string; model: string; version: string; now(): Date; who: { agent?: AgentIdentity } }): SessionRecord {
  return { t: "session", id: s.id, root: s.root, model: s.model, created: s.now().toISOString(), version: s.version, ...s.who };
}

/** The session as it stands when the writer asks. */
export interface SessionNow {
  record: SessionRecord;
  model: string;
  prefix: Prefix;
  sections: SystemSection[];
  messages: readonly ChatMessage[];
  turns: number;
}

export function writerHooks(now: () => SessionNow, warn: (message: string) => void): WriterHooks {
  const reason = "re-seeded: the session file was deleted or replaced";
  return {
    reseed: () => {
      const s = now();
      const p = s.prefix;
      return [
        { ...s.record, model: s.model },
        { t: "prefix", system: p.system, tools: [...p.tools], sections: s.sections, fingerprint: p.fingerprint, reason },
        { t: "epoch", reason, messages: [...s.messages], turns: s.turns },
      ];
    },
    warn,
  };
}
