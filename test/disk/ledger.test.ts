// The usage ledger on a disk that fills up: the lines the disk refused are kept and written once
// space is back (at the next request, or when the process ends), so `stats` counts every request.
import { describe, expect, it, vi } from "vitest";
vi.mock("node:fs", async (orig) => (await import("../helpers/full-disk.js")).mockFs(await orig()));
import { readFileSync } from "node:fs";
import { disk } from "../helpers/full-disk.js";
import { Book, type BookNotice } from "../../src/core/cost/run/book.js";
import { ledgerPath, parseLedger, type LedgerRecord } from "../../src/core/cost/index.js";
import { scratch } from "./scratch.js";

const t = scratch();

function book(): { book: Book; home: string; notices: BookNotice[] } {
  const home = t.dir();
  const notices: BookNotice[] = [];
  return { book: new Book(home, (n) => notices.push(n)), home, notices };
}

const line = (turn: number): LedgerRecord => ({
  time: new Date(Date.UTC(2026, 11, 7, 12, 0, turn)).toISOString(), project: "/p", session: "s1", model: "deepseek-chat", family: "chat",
  turn, step: 1, prompt: 100, hit: 0, miss: 100, completion: 10, reasoning: 0, usd: 0.001, cny: 0.007, savingUsd: 0, savingCny: 0, peak: false,
});

const turnsOnDisk = (home: string): number[] => {
  const read = parseLedger(readFileSync(ledgerPath(home), "utf8"));
  expect(read.skipped).toEqual([]);
  return read.records.map((r) => r.turn);
};

describe("the usage ledger on a full disk", () => {
  it("writes the lines the disk refused with the next line once space is back, in order", async () => {
    const b = book();
    await b.book.append(line(1));
    disk.left = 30; // the next line tears after 30 bytes
    await b.book.append(line(2));
    await b.book.append(line(3));
    expect(b.notices.map((n) => n.code)).toEqual(["ledger-write-failed"]);
    expect(b.notices[0].message).toContain(ledgerPath(b.home));
    disk.free();
    await b.book.append(line(4));
    expect(turnsOnDisk(b.home)).toEqual([1, 2, 3, 4]);
  });

  it("writes them when the process ends, if space came back by then", async () => {
    const b = book();
    disk.fill();
    await b.book.append(line(1));
    await b.book.append(line(2));
    disk.free();
    await b.book.flush();
    expect(turnsOnDisk(b.home)).toEqual([1, 2]);
  });
});
