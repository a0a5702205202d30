import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Room for a loaded machine (2 cores running another suite beside this one): tests wait for
    // events, and these limits only end a test that would never finish. A test's own limit
    // below this one is not given (it would be the tighter one).
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: "forks",
    // The suite runs on a 2-core CI machine; end-to-end tests start real processes.
    maxWorkers: 2,
  },
});
