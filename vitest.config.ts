import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // The suite runs on a 2-core CI machine; end-to-end tests start real processes.
    maxWorkers: 2,
  },
});
