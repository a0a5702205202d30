// Canonical JSON for the immutable prefix: keys sorted at every level, so the same tool set
// serialises to the same bytes in every process, whatever order its parts were built in.
import { createHash } from "node:crypto";

/** A copy of `value` whose object keys are inserted in sorted order (JSON.stringify keeps it). */
export function canonicalize<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => canonicalize(v)) as T;
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value as object).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = canonicalize(v);
    }
    return out as T;
  }
  return value;
}

export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
