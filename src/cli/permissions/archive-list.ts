// The member names of an archive about to be extracted (`tar -x`, `unzip`), read from the file
// itself so that a Bash command that unpacks it is judged by where its files land (a protected
// path planted by an archive asks like any other write). Plain and gzip-compressed tar (ustar,
// GNU long names, pax `path=`) and zip (its central directory). Anything else, or an archive too
// large to look through, is null: the command then asks.

import { closeSync, openSync, readSync, statSync } from "node:fs";
import { gunzipSync } from "node:zlib";

/** Archives larger than this (compressed, and tar once unpacked) are not looked through. */
const MAX_BYTES = 64 * 1024 * 1024;
const MAX_MEMBERS = 20_000;

function readAll(path: string): Buffer | null {
  try {
    const st = statSync(path);
    if (!st.isFile() || st.size > MAX_BYTES) return null;
    const fd = openSync(path, "r");
    try {
      const buf = Buffer.alloc(st.size);
      let off = 0;
      while (off < buf.length) {
        const n = readSync(fd, buf, off, buf.length - off, off);
        if (n === 0) break;
        off += n;
      }
      return buf.subarray(0, off);
    } finally {
      closeSync(fd);
    }
  } catch {
    return null; // missing or unreadable: tar and unzip fail there too, but the command asks
  }
}

const text = (b: Buffer, from: number, len: number): string => {
  const s = b.subarray(from, from + len);
  const nul = s.indexOf(0);
  return s.subarray(0, nul < 0 ? s.length : nul).toString("utf8");
};

/** Member names of a tar archive (plain or gzip), or null. */
export function listTar(path: string): string[] | null {
  let buf = readAll(path);
  if (buf === null) return null;
  if (buf[0] === 0x1f && buf[1] === 0x8b) {
    try {
      buf = gunzipSync(buf, { maxOutputLength: MAX_BYTES });
    } catch {
      return null; // corrupt, or larger than the bound once unpacked
    }
  }
  const names: string[] = [];
  let next: string | null = null; // a GNU long name or pax path for the following member
  for (let off = 0; off + 512 <= buf.length; ) {
    const header = buf.subarray(off, off + 512);
    if (header.every((b) => b === 0)) return names;
    if (text(header, 257, 6) !== "ustar" && text(header, 257, 5) !== "ustar") return null;
    const sizeField = text(header, 124, 12).trim();
    if (!/^[0-7]*$/.test(sizeField)) return null; // base-256 sizes: far past the bound anyway
    const size = parseInt(sizeField || "0", 8);
    const type = String.fromCharCode(header[156] || 0x30);
    const data = buf.subarray(off + 512, off + 512 + size);
    if (type === "L") next = text(data, 0, data.length);
    else if (type === "x") next = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(data.toString("utf8"))?.[1] ?? next;
    else if (type !== "g") {
      const prefix = text(header, 345, 155);
      names.push(next ?? (prefix ? `${prefix}/${text(header, 0, 100)}` : text(header, 0, 100)));
      next = null;
      if (names.length > MAX_MEMBERS) return null;
    }
    off += 512 + Math.ceil(size / 512) * 512;
  }
  return null; // ended without the closing blocks
}

/** Member names of a zip archive, from its central directory, or null. */
export function listZip(path: string): string[] | null {
  const buf = readAll(path);
  if (buf === null || buf.length < 22) return null;
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return null;
  const count = buf.readUInt16LE(eocd + 10);
  let off = buf.readUInt32LE(eocd + 16);
  if (count === 0xffff || off === 0xffffffff || count > MAX_MEMBERS) return null; // zip64
  const names: string[] = [];
  for (let k = 0; k < count; k++) {
    if (off + 46 > buf.length || buf.readUInt32LE(off) !== 0x02014b50) return null;
    const nameLen = buf.readUInt16LE(off + 28);
    const extra = buf.readUInt16LE(off + 30);
    const comment = buf.readUInt16LE(off + 32);
    names.push(buf.subarray(off + 46, off + 46 + nameLen).toString("utf8"));
    off += 46 + nameLen + extra + comment;
  }
  return names;
}
