// The two pure pieces behind WebFetch: which addresses are not the public internet (every form
// an IPv6 address can carry an IPv4 one in), and HTML as readable text.
import { describe, expect, it } from "vitest";
import { nonPublicKind } from "../../src/lib/net-address.js";
import { decodeEntities, htmlToText } from "../../mods/webfetch/html.js";

describe("nonPublicKind", () => {
  it("names loopback, private, link-local and other non-public addresses, in IPv4 and IPv6", () => {
    const cases: Array<[string, string | null]> = [
      ["127.0.0.1", "loopback"], ["127.8.9.10", "loopback"], ["10.1.2.3", "private"], ["172.16.0.1", "private"], ["172.31.255.255", "private"],
      ["192.168.0.10", "private"], ["169.254.169.254", "link-local"], ["100.64.0.1", "shared (carrier NAT)"], ["0.0.0.0", "unspecified"],
      ["224.0.0.1", "multicast"], ["::1", "loopback"], ["::", "unspecified"], ["fe80::1", "link-local"], ["fd12:3456::1", "private (unique local)"],
      ["[::1]", "loopback"], ["fe80::1%eth0", "link-local"],
      ["8.8.8.8", null], ["172.32.0.1", null], ["93.184.216.34", null], ["2606:4700:4700::1111", null],
    ];
    for (const [ip, kind] of cases) expect(nonPublicKind(ip), ip).toBe(kind);
  });

  it("judges an IPv6 address carrying an IPv4 one by the IPv4 address (mapped, NAT64, 6to4), and a non-address as non-public", () => {
    expect(nonPublicKind("::ffff:127.0.0.1")).toBe("loopback");
    expect(nonPublicKind("::ffff:7f00:1")).toBe("loopback");
    expect(nonPublicKind("64:ff9b::a9fe:a9fe")).toBe("link-local");
    expect(nonPublicKind("2002:c0a8:101::1")).toBe("private");
    expect(nonPublicKind("::ffff:8.8.8.8")).toBeNull();
    expect(nonPublicKind("localhost")).toBe("not an IP address");
  });
});

describe("htmlToText", () => {
  const page = (body: string) => htmlToText(`<html><head><title>T</title><script>x()</script></head><body>${body}</body></html>`, "https://example.com/docs/");

  it("keeps the title apart and drops scripts, styles, templates and svg wherever they are", () => {
    const r = page(`<p>one</p><style>p{}</style><template><p>hidden</p></template><svg><text>drawn</text></svg><noscript>js</noscript><p>two</p>`);
    expect(r).toEqual({ title: "T", text: "one\n\ntwo" });
  });

  it("writes headings, absolute links, nested lists, tables and code blocks as Markdown", () => {
    const r = page(`<h3>Use</h3><p>See <a href="../api#x">the &lt;API&gt;</a> or <a href="mailto:a@b.c">mail</a> or <a href="#top">top</a>.</p>
      <ol start="3"><li>three<ul><li>sub</li></ul></li><li>four</li></ol><table><tr><th>k</th><td>v</td></tr></table><pre><code>  if (a &amp;&amp; b) {
    go();
  }</code></pre>`);
    expect(r.text).toBe("### Use\n\nSee [the <API>](https://example.com/api#x) or [mail](mailto:a@b.c) or top.\n\n3. three\n  - sub\n4. four\n\n| k | v |\n\n```\n  if (a && b) {\n    go();\n  }\n```");
  });

  it("decodes named and numeric entities and leaves unknown ones as written", () => {
    expect(decodeEntities("&amp; &nbsp;&copy;&#8212;&#x1F600;&unknown; &amp")).toBe("&  ©—😀&unknown; &");
  });
});
