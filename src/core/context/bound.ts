// Tool results are bounded once, when they enter the log, and never re-truncated later (a
// later rewrite would break the cached prefix). Head and tail are kept, cut at line
// boundaries where one is near, with a marker that says how much was cut and how to get it.

export const DEFAULT_RESULT_MAX_BYTES = 32 * 1024;

export function boundResult(text: string, maxBytes = DEFAULT_RESULT_MAX_BYTES): string {
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes <= maxBytes) return text;
  const buf = Buffer.from(text, "utf8");
  const budget = maxBytes - 200; // room for the marker
  const headBytes = Math.floor(budget * 0.6);
  const tailBytes = budget - headBytes;
  let head = utf8Prefix(buf, headBytes);
  let tail = utf8Suffix(buf, tailBytes);
  const headCut = head.lastIndexOf("\n");
  if (headCut > head.length * 0.8) head = head.slice(0, headCut + 1);
  const tailCut = tail.indexOf("\n");
  if (tailCut >= 0 && tailCut < tail.length * 0.2) tail = tail.slice(tailCut + 1);
  const cut = bytes - Buffer.byteLength(head, "utf8") - Buffer.byteLength(tail, "utf8");
  return (
    `${head}\n[… ${cut} bytes cut by deepcode: results are kept to ${Math.round(maxBytes / 1024)} KiB. ` +
    `To see the middle, narrow the command or search, or Read the file with offset/limit …]\n${tail}`
  );
}

function utf8Prefix(buf: Buffer, n: number): string {
  let end = Math.min(n, buf.length);
  while (end > 0 && (buf[end] & 0xc0) === 0x80) end--; // do not split a character
  return buf.subarray(0, end).toString("utf8");
}

function utf8Suffix(buf: Buffer, n: number): string {
  let start = Math.max(0, buf.length - n);
  while (start < buf.length && (buf[start] & 0xc0) === 0x80) start++;
  return buf.subarray(start).toString("utf8");
}
