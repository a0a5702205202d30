// A background job's output, kept up to a bound: the newest `max` characters (stdout and
// stderr as they arrived, interleaved), older ones dropped and counted. Offsets are absolute
// (characters since the job started), so a reader that fell behind learns how much it lost.

export class OutputRing {
  private chunks: string[] = [];
  private kept = 0;
  /** Characters the job has written in all. */
  total = 0;

  constructor(readonly max: number) {}

  push(text: string): void {
    if (text.length === 0) return;
    this.total += text.length;
    this.chunks.push(text);
    this.kept += text.length;
    while (this.kept > this.max && this.chunks.length > 0) {
      const over = this.kept - this.max;
      const first = this.chunks[0];
      if (first.length <= over) {
        this.chunks.shift();
        this.kept -= first.length;
      } else {
        this.chunks[0] = first.slice(over);
        this.kept -= over;
      }
    }
  }

  /** Characters dropped to keep within the bound. */
  get dropped(): number {
    return this.total - this.kept;
  }

  /** What was written from absolute offset `from` on, and how much of that is no longer kept. */
  since(from: number): { text: string; lost: number } {
    const start = this.total - this.kept;
    const lost = Math.max(0, start - from);
    if (this.chunks.length > 1) this.chunks = [this.chunks.join("")];
    const all = this.chunks[0] ?? "";
    return { text: all.slice(Math.max(0, from - start)), lost };
  }
}
