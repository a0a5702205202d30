// A wait that never holds the process open and ends early when its signal aborts.

/** Wait `ms` (never holding the process open), or until `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(t);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const t = setTimeout(done, ms);
    t.unref();
    if (signal.aborted) done();
    else signal.addEventListener("abort", done, { once: true });
  });
}
