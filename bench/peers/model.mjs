// The scripted model of the peers benchmark: one for every agent, deciding from content alone.
//
// Each request is classified first:
//   - summary: the agent asks for a compaction summary (tool_choice "none", or the last user
//     message asks to summarise / continue the conversation / write a checkpoint). The reply is a
//     summary that quotes the current task's prompt and a progress marker
//     `[bench-progress <task> <steps done>]`, so the work goes on after the compaction;
//   - side: a request without tools that is not a summary (opencode's title, …): a short title;
//   - task: the latest task (in session order) quoted anywhere in the conversation (after the leading system
//     messages, a summary included) is the current task; the steps done are the progress marker
//     of that message, if any, then the calls the agent sent back after it, matched to the
//     script's actions (tools.mjs maps each action onto the agent's own tools). The reply is the
//     next step's calls, or the task's final answer once every step is done.
// A step may depend on what the model has seen (`when(seen)`, over the text of the tool results
// after the anchor and the anchor itself): read on when a needle was not in the first page,
// search again when the first output lost what was needed. A step may also `use` facts — text
// the model must have in front of it to take the step (the decisions it is about to record):
// one it has lost (a compaction dropped the result, a pruner cut the line out, a summary left it
// behind) is read again first, once, as a real model would have to; the re-read is counted
// (`reread`), and a fact still missing when the step is taken is reported (`lost`). An edit whose
// result reads as a failure is tried again (after a read, when the failure asks for one), at
// most three times. Nothing depends on how many requests an agent sends.
import { renderMessage, textOf } from "../../test/sim/render.mjs";
import { normalizeReply, replyAsMessage } from "../../test/sim/script.mjs";
import { countTokens } from "../../test/sim/tokens.mjs";
import { thinkingOn } from "../../test/sim/validate.mjs";
import { callFor, sameCall, toolbox } from "./tools.mjs";

const SUMMARY_ASK = /summar|continuing (our|the) conversation|context checkpoint|checkpoint summary|compact the conversation/i;
const FAILED = /\b(error|failed|not found|no match|did not match|could not find|has not been read|must read|read it first|not unique)\b/i;
const PROGRESS = /\[bench-progress (\S+) (\d+)\]/g;

/** Deterministic reasoning of a realistic length (about 120–320 tokens) for one step. */
function reasoning(first, seed) {
  const words = ("check what the file says before changing it and keep the edit small so the tests still pass " +
    "the user wants the answer grounded in the code so quote the line and name the file where it lives " +
    "read the relevant part first then decide whether another search is needed before writing anything").split(" ");
  let x = 2166136261;
  for (const c of seed) x = Math.imul(x ^ c.charCodeAt(0), 16777619) >>> 0;
  const n = 90 + (x % 160);
  const out = [];
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out.push(words[x % words.length]);
  }
  return `${first} ${out.join(" ")}.`;
}

/** The conversation as calls and results: [{ index, call: {id, name, arguments}, result }]. */
function exchanges(messages, from) {
  const results = new Map();
  for (const m of messages) if (m.role === "tool") results.set(m.tool_call_id, textOf(m.content));
  const out = [];
  for (let i = from; i < messages.length; i++) {
    const m = messages[i];
    if (m.role !== "assistant" || !Array.isArray(m.tool_calls)) continue;
    for (const tc of m.tool_calls) {
      let args;
      try {
        args = JSON.parse(tc.function?.arguments ?? "{}");
      } catch {
        args = {}; // arguments the agent mangled: the call matches no action
      }
      out.push({ index: i, call: { id: tc.id, name: tc.function?.name, arguments: args }, result: results.get(tc.id) });
    }
  }
  return out;
}

/**
 * The model of one session for one agent: `respond(chat)` → { reply, info }. `root()` gives
 * the agent's project folder (absolute paths are written under it).
 */
export function createModel(session, { root }) {
  const tasks = session.tasks;
  /** Per task: steps done as of the latest task request (what a summary reports). */
  const progress = new Map();
  const finals = new Set();
  const errors = [];
  /** The results of each task's first step as the agent sent them back (what `needs` is checked on). */
  const firstResults = new Map();
  /** Per task: facts read again because they had been lost, and facts missing when used. */
  const reread = new Map();
  const lost = new Map();

  function findAnchor(messages) {
    const start = messages.findIndex((m) => m.role !== "system");
    let best = null;
    for (let i = Math.max(start, 0); i < messages.length; i++) {
      const text = textOf(messages[i].content);
      tasks.forEach((t, order) => {
        const at = text.lastIndexOf(t.prompt);
        if (at < 0) return;
        // Tasks run in order: the latest task quoted anywhere is the current one (an older
        // summary may quote an older prompt later in the text); then its latest message.
        const rank = order * 1e12 + i * 1e6 + Math.min(at, 999_999);
        if (!best || rank > best.rank) best = { rank, index: i, task: t, text };
      });
    }
    return best;
  }

  function isSummary(chat) {
    if (chat.tool_choice === "none") return true;
    const last = chat.messages.at(-1);
    if (last?.role !== "user") return false;
    // Only what follows the last summary this model wrote: a message that carries a summary
    // (after a compaction) is not a request for one, unless it asks again after it.
    const text = textOf(last.content);
    const mine = text.lastIndexOf("[bench-progress ");
    const ask = mine < 0 ? text : text.slice(text.indexOf("\n", mine) < 0 ? text.length : text.indexOf("\n", mine));
    return SUMMARY_ASK.test(ask.replace(/<\/summary>/g, "")) && !tasks.some((t) => ask.trim().endsWith(t.prompt));
  }

  function seenText(messages, anchor) {
    const parts = [anchor.text];
    for (const m of messages.slice(anchor.index + 1)) if (m.role === "tool" || m.role === "user") parts.push(textOf(m.content));
    return parts.join("\n");
  }

  /** Where the task stands: the next step's actions (none once every step is done). */
  function plan(chat, anchor, box, dir) {
    const task = anchor.task;
    let marked = 0;
    for (const m of anchor.text.matchAll(PROGRESS)) if (m[1] === task.id) marked = Math.max(marked, Number(m[2]));
    const seen = seenText(chat.messages, anchor);
    const pool = exchanges(chat.messages, anchor.index + 1);
    for (let s = marked; s < task.steps.length; s++) {
      const step = task.steps[s];
      if (step.when && !step.when(seen)) continue;
      const pending = [];
      let retry = false;
      for (const action of step.actions) {
        const matches = pool.filter((x) => !x.used && sameCall(x.call, action, box, dir));
        const writes = action.do === "edit" || action.do === "write";
        const ok = matches.find((x) => !writes || (x.result !== undefined && !FAILED.test(x.result)));
        if (ok) {
          ok.used = true;
          const key = `${task.id}\u0000${JSON.stringify(action)}`;
          // The first time the result was seen: later requests may carry it pruned or cleared.
          if (s === 0 && ok.result !== undefined && !firstResults.has(key)) firstResults.set(key, { task: task.id, text: ok.result });
          continue;
        }
        for (const x of matches) x.used = true;
        if (matches.length === 0) pending.push(action);
        else if (matches.length < 3) {
          // Every try so far failed: read first where the agent's error says so, then try again.
          const lastTry = matches.at(-1);
          const readAfter = pool.some((x) => x.index > lastTry.index && x.call.name === box.read?.name);
          pending.push(/\bread\b/i.test(lastTry.result ?? "") && !readAfter && box.read ? { do: "read", path: action.path } : action);
          retry = true;
        } // three failed tries: given up (the end-state check reports the task)
      }
      if (pending.length) {
        const refresh = step.use ? relearn(task, step, seen, pool, box, dir) : [];
        if (refresh.length) return { step: s, actions: refresh, retry, seen, task };
        return { step: s, actions: pending, retry, seen, task };
      }
    }
    return { step: task.steps.length, actions: [], seen, task };
  }

  /** The reads that bring back what `step.use` needs and the model no longer has in view. A
   *  file is read at most twice after the anchor (the first read and one more: a result pruned
   *  since it was first seen is read again); what stays missing is recorded as lost. */
  function relearn(task, step, seen, pool, box, dir) {
    const out = [];
    for (const u of step.use) {
      if (seen.includes(u.text)) continue;
      const sent = pool.filter((x) => sameCall(x.call, u.from, box, dir));
      if (sent.some((x) => x.result === undefined)) continue; // sent, its result not back yet
      if (sent.length >= 2) {
        if (!lost.has(task.id)) lost.set(task.id, new Set());
        lost.get(task.id).add(u.text);
        continue;
      }
      out.push(u.from);
    }
    if (out.length) reread.set(task.id, (reread.get(task.id) ?? 0) + out.length);
    return out;
  }

  function summaryReply(chat) {
    const all = chat.messages.map((m) => textOf(m.content)).join("\n");
    // The latest task quoted anywhere (tasks run in order; an older summary may be quoted later).
    const current = tasks.findLast((t) => all.includes(t.prompt)) ?? null;
    const lines = [
      "Summary of the session so far: the user is working on the ledgerlite repository (src/*.js with tests in test/*.test.js, run with node test/run.js); earlier requests were answered and their changes are in place.",
    ];
    if (current) {
      const done = finals.has(current.id) ? current.steps.length : (progress.get(current.id) ?? 0);
      lines.push(`Current request (verbatim): ${current.prompt}`);
      lines.push(`Progress: ${done} of its ${current.steps.length} steps are done${finals.has(current.id) ? " and it was answered" : ""}. [bench-progress ${current.id} ${done}]`);
      // What the task will need and the summary request holds: its facts and what its steps use.
      const wanted = new Set([...(current.facts ?? []), ...current.steps.flatMap((st) => (st.use ?? []).map((u) => u.text))]);
      const facts = [...wanted].filter((f) => all.includes(f));
      if (facts.length) lines.push(`Facts seen so far: ${facts.join(" | ")}`);
    }
    // The format the agent asked for, where it named one (Claude Code: <analysis> then <summary>).
    const ask = textOf(chat.messages.at(-1)?.content);
    const content = /<summary>/.test(ask) ? `<analysis>\nWhat the next turn needs: the current request and how far it got.\n</analysis>\n<summary>\n${lines.join("\n")}\n</summary>` : lines.join("\n");
    return { content, reasoning: reasoning("I am asked to summarise the conversation so that the work can continue from the summary alone.", `summary-${current?.id}`) };
  }

  function decide(chat) {
    if (isSummary(chat)) return { reply: summaryReply(chat), kind: "summary" };
    if (!Array.isArray(chat.tools) || chat.tools.length === 0) return { reply: { content: "Ledgerlite maintenance" }, kind: "side" };
    const anchor = findAnchor(chat.messages);
    if (!anchor) {
      errors.push("a request with tools carried none of the session's prompts");
      return { reply: { content: "I have no task to work on." }, kind: "unknown" };
    }
    const dir = root();
    const box = toolbox(chat.tools);
    const next = plan(chat, anchor, box, dir);
    const task = next.task;
    if (next.actions.length === 0) {
      finals.add(task.id);
      progress.set(task.id, task.steps.length);
      return { reply: { content: task.final(next.seen), reasoning: reasoning(task.think ?? "I have what I need to answer.", `${task.id}-final`) }, kind: "task", task: task.id, step: "final" };
    }
    progress.set(task.id, next.step + 1);
    const step = task.steps[next.step];
    let calls;
    try {
      calls = next.actions.map((a) => callFor(a, box, dir));
    } catch (err) {
      errors.push(`${task.id}: ${err.message}`);
      return { reply: { content: `I cannot do this with the tools I have: ${err.message}` }, kind: "task", task: task.id, step: "impossible" };
    }
    return {
      reply: { content: step.say ?? "", reasoning: reasoning(step.think ?? "Next step.", `${task.id}-${next.step}${next.retry ? "-retry" : ""}`), tool_calls: calls },
      kind: "task",
      task: task.id,
      step: next.step,
    };
  }

  return {
    finals,
    errors,
    /** Facts of `task` read again after the agent lost them, and facts it never got back. */
    relearned: (task) => ({ reread: reread.get(task.id) ?? 0, lost: [...(lost.get(task.id) ?? [])] }),
    /** Whether each of `task.needs` was in the results of its first step. */
    neededSeen(task) {
      const texts = [...firstResults.values()].filter((r) => r.task === task.id).map((r) => r.text).join("\n");
      return (task.needs ?? []).filter((n) => !texts.includes(n));
    },
    respond(chat) {
      const d = decide(chat);
      const reply = { chunkSize: 512, ...d.reply };
      const rendered = renderMessage(replyAsMessage(normalizeReply(reply, { thinking: thinkingOn(chat) }), true));
      return { reply, info: { kind: d.kind, task: d.task, step: d.step, rendered, replyTokens: countTokens(rendered) } };
    },
  };
}
