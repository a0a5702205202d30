// The host list of sandbox.network.allowedDomains: which entries count, what a request's host
// must look like to match, and how settings layers and the managed policy combine.
import { describe, expect, it } from "vitest";
import { allowedHosts, hostAllowed, parseHostRule, ruleText } from "../../mods/sandbox/hosts.js";
import { judge } from "../../mods/sandbox/proxy.js";
import type { SettingsLayerView } from "../../src/contract/index.js";

const layer = (name: string, network: unknown): SettingsLayerView => ({ name, file: `/etc/${name}.json`, settings: { sandbox: { network } } as SettingsLayerView["settings"] });
const texts = (layers: SettingsLayerView[], warn: (m: string) => void = () => undefined): string[] => allowedHosts(layers, undefined, warn).map(ruleText);

describe("allowedDomains entries and matching", () => {
  it("matches exact hosts, wildcard subdomains (not the bare domain) and port-bound entries", () => {
    const rules = ["github.com", "*.npmjs.org", "localhost:8080"].map((e) => parseHostRule(e)!);
    expect(hostAllowed(rules, "github.com", 443)).toBe(true);
    expect(hostAllowed(rules, "api.github.com", 443)).toBe(false);
    expect(hostAllowed(rules, "registry.npmjs.org", 443)).toBe(true);
    expect(hostAllowed(rules, "npmjs.org", 443)).toBe(false);
    expect(hostAllowed(rules, "evilnpmjs.org", 443)).toBe(false);
    expect(hostAllowed(rules, "localhost", 8080)).toBe(true);
    expect(hostAllowed(rules, "localhost", 8081)).toBe(false);
  });

  it("refuses a request's host unless it is in canonical form, before consulting the list", () => {
    const rules = [parseHostRule("github.com")!];
    expect(judge(rules, "github.com:443", null)).toEqual({ host: "github.com", port: 443 });
    for (const bad of ["GitHub.com:443", "github.com.:443", "github.com@evil.test:443", "github.com", "[::1]:443", "0x7f000001:443", "github.com:99999"]) expect(judge(rules, bad, null)).toHaveProperty("refused");
    expect(judge(rules, "github.com", 80)).toEqual({ host: "github.com", port: 80 });
  });

  it("leaves out entries that are not hosts, naming the file", () => {
    const warnings: string[] = [];
    expect(texts([layer("user", { allowedDomains: ["ok.example", "https://x.example/", "*", "", 7, "*.10.0.0.1"] })], (m) => warnings.push(m))).toEqual(["ok.example"]);
    expect(warnings).toHaveLength(5);
    expect(warnings[0]).toMatch(/^\/etc\/user\.json: sandbox\.network\.allowedDomains entry "https:\/\/x\.example\/"/);
  });
});

describe("layers and the managed policy", () => {
  it("adds up the lists of the person's layers", () => {
    expect(texts([layer("user", { allowedDomains: ["a.example"] }), layer("project", { allowedDomains: ["b.example", "a.example"] })])).toEqual(["a.example", "b.example"]);
  });

  it("a managed list bounds the others: lower layers cannot add hosts", () => {
    expect(texts([layer("user", { allowedDomains: ["evil.example"] }), layer("managed", { allowedDomains: ["corp.example"] })])).toEqual(["corp.example"]);
  });

  it("allowManagedDomainsOnly in the managed policy: only managed hosts, none when it lists none", () => {
    expect(texts([layer("project", { allowedDomains: ["evil.example"] }), layer("managed", { allowManagedDomainsOnly: true })])).toEqual([]);
    // The key means nothing outside the managed policy.
    expect(texts([layer("user", { allowedDomains: ["a.example"], allowManagedDomainsOnly: true }), layer("project", { allowedDomains: ["b.example"] })])).toEqual(["a.example", "b.example"]);
  });
});
