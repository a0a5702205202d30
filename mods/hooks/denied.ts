// What a PermissionDenied command reads on stdin: Claude Code's fields (`tool_name`,
// `tool_input`, `tool_use_id`, `reason`) and deepcode's own account of who denied it, for an
// administrator's audit: `decided_by` (a rule with its layer, a hook, "non-interactive", the
// person) and `permission_rule` (the settings rule, its layer, file and line) when a rule did.
import type { EventOf, JsonValue } from "../../src/contract/index.js";

export function deniedFields(e: EventOf<"tool.decided">): Record<string, JsonValue> {
  const by = e.answer?.by ?? e.by;
  const rule = e.rule ? { ...e.rule } : null;
  return {
    tool_name: e.tool,
    tool_input: e.input,
    tool_use_id: e.callId,
    reason: e.answer?.reason ?? e.reason ?? "denied",
    decided_by: by ?? null,
    asked: e.gate === "ask",
    permission_rule: rule,
  };
}
