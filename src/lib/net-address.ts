// Which IP addresses are not the public internet: what a web request made for the model must
// never reach on its own (a page could otherwise steer it at a cloud metadata service, a router,
// a database listening on loopback). The core's http.fetch checks every address a host resolves
// to with this, and the address it connects to is the one it checked.
import { BlockList, isIP } from "node:net";

const V4: ReadonlyArray<[string, number, string]> = [
  ["0.0.0.0", 8, "unspecified"],
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "shared (carrier NAT)"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local"],
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "reserved"],
  ["192.0.2.0", 24, "documentation"],
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "benchmarking"],
  ["198.51.100.0", 24, "documentation"],
  ["203.0.113.0", 24, "documentation"],
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved"],
];

const V6: ReadonlyArray<[string, number, string]> = [
  ["::", 128, "unspecified"],
  ["::1", 128, "loopback"],
  ["fc00::", 7, "private (unique local)"],
  ["fe80::", 10, "link-local"],
  ["fec0::", 10, "site-local"],
  ["ff00::", 8, "multicast"],
  ["2001:db8::", 32, "documentation"],
  ["100::", 64, "discard"],
];

const lists = new Map<string, BlockList>();
for (const [net, bits, kind] of [...V4, ...V6]) {
  const list = lists.get(kind) ?? new BlockList();
  list.addSubnet(net, bits, net.includes(":") ? "ipv6" : "ipv4");
  lists.set(kind, list);
}

/** What kind of non-public address `ip` is (`loopback`, `private`, `link-local`…), or null for
 *  a public one. An IPv6 address that carries an IPv4 one (`::ffff:127.0.0.1`, NAT64
 *  `64:ff9b::7f00:1`, 6to4 `2002:7f00:1::`) is judged by the IPv4 address inside it. Anything
 *  that is not an IP address at all counts as non-public (fail closed). */
export function nonPublicKind(ip: string): string | null {
  const bare = ip.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const family = isIP(bare);
  if (family === 0) return "not an IP address";
  if (family === 6) {
    const inner = embeddedV4(bare);
    if (inner !== null) return nonPublicKind(inner);
  }
  const type = family === 4 ? "ipv4" : "ipv6";
  for (const [kind, list] of lists) if (list.check(bare, type)) return kind;
  return null;
}

/** The IPv4 address an IPv6 one carries, for the forms that carry one. */
function embeddedV4(ip: string): string | null {
  const words = expand(ip);
  if (words === null) return null;
  const v4 = (hi: number, lo: number): string => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zero = (from: number, to: number): boolean => words.slice(from, to).every((w) => w === 0);
  if (zero(0, 5) && words[5] === 0xffff) return v4(words[6], words[7]); // IPv4-mapped
  if (zero(0, 6) && (words[6] !== 0 || words[7] > 1)) return v4(words[6], words[7]); // IPv4-compatible (old)
  if (words[0] === 0x64 && words[1] === 0xff9b && zero(2, 6)) return v4(words[6], words[7]); // NAT64
  if (words[0] === 0x2002) return v4(words[1], words[2]); // 6to4
  return null;
}

/** The eight 16-bit words of an IPv6 address (a dotted IPv4 tail included). */
function expand(ip: string): number[] | null {
  let text = ip.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const p = dotted[1].split(".").map(Number);
    text = `${text.slice(0, dotted.index)}${((p[0] << 8) | p[1]).toString(16)}:${((p[2] << 8) | p[3]).toString(16)}`;
  }
  const [head, tail] = text.split("::");
  const part = (s: string | undefined): number[] => (s ? s.split(":").map((w) => parseInt(w, 16)) : []);
  const h = part(head);
  const t = part(tail);
  if (tail === undefined && h.length !== 8) return null;
  const words = [...h, ...new Array<number>(Math.max(0, 8 - h.length - t.length)).fill(0), ...t];
  return words.length === 8 && words.every((w) => Number.isInteger(w) && w >= 0 && w <= 0xffff) ? words : null;
}
