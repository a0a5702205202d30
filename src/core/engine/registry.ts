// The tools an engine has: built-ins in their declared order, then the rest by name. A
// subagent's engine gets a view (`restrict`): only the names it was given, read live from its
// parent's registry, so it can never hold a tool its parent does not.

import type { RegisteredTool, ToolSpec } from "../../contract/index.js";

export class ToolRegistry {
  private readonly byName = new Map<string, RegisteredTool>();

  add(spec: ToolSpec, source: string): void {
    if (!/^[a-zA-Z0-9_-]{1,64}$/.test(spec.name)) throw new Error(`tool name '${spec.name}' from ${source} is not [a-zA-Z0-9_-]{1,64}`);
    const existing = this.byName.get(spec.name);
    if (existing) throw new Error(`tool '${spec.name}' from ${source} clashes with the one from ${existing.source}`);
    this.byName.set(spec.name, { spec, source });
  }

  remove(name: string): void {
    this.byName.delete(name);
  }

  get(name: string): RegisteredTool | undefined {
    return this.byName.get(name);
  }

  /** A view with only these names, read live (a tool taken back here is gone there too);
   *  adding to it throws. Names this registry does not have are simply not there. */
  restrict(names: Iterable<string>): ToolRegistry {
    return new RestrictedRegistry(this, new Set(names));
  }

  /** Built-ins in their declared order, then the rest by name: the same order every time. */
  list(): RegisteredTool[] {
    const all = [...this.byName.values()];
    const builtin = all.filter((t) => t.source === "builtin");
    const rest = all.filter((t) => t.source !== "builtin").sort((a, b) => a.spec.name.localeCompare(b.spec.name));
    return [...builtin, ...rest];
  }
}

class RestrictedRegistry extends ToolRegistry {
  constructor(private readonly base: ToolRegistry, private readonly names: ReadonlySet<string>) {
    super();
  }

  override add(spec: ToolSpec, source: string): void {
    throw new Error(`tool '${spec.name}' from ${source}: a subagent's tools are a view of its parent's; add tools to the parent's registry`);
  }

  override remove(name: string): void {
    throw new Error(`cannot remove '${name}' from a subagent's view of the tools`);
  }

  override get(name: string): RegisteredTool | undefined {
    return this.names.has(name) ? this.base.get(name) : undefined;
  }

  override list(): RegisteredTool[] {
    return this.base.list().filter((t) => this.names.has(t.spec.name));
  }
}
