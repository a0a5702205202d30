// Arguments the conformance clients give a scenario's tool: each property's default, else a
// plain value of its type (the scenarios check that a call arrives, not what it carries).
export function argsFor(schema) {
  const out = {};
  const props = schema && typeof schema === "object" && schema.properties ? schema.properties : {};
  let n = 1;
  for (const [k, s] of Object.entries(props)) {
    if (s.default !== undefined) out[k] = s.default;
    else if (s.type === "number" || s.type === "integer") out[k] = n++;
    else if (s.type === "boolean") out[k] = true;
    else if (Array.isArray(s.enum)) out[k] = s.enum[0];
    else if (s.type === "object") out[k] = {};
    else if (s.type === "array") out[k] = [];
    else out[k] = "test";
  }
  return out;
}
