// Lint rules for deepcode. Boundaries between folders are enforced separately by
// scripts/check-boundaries.mjs (run by `npm run lint` after eslint).
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "coverage/**", "test/fixtures/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: "readonly", console: "readonly", Buffer: "readonly", setTimeout: "readonly",
        clearTimeout: "readonly", setInterval: "readonly", clearInterval: "readonly", setImmediate: "readonly",
        URL: "readonly", AbortController: "readonly", AbortSignal: "readonly", performance: "readonly",
        TextEncoder: "readonly", TextDecoder: "readonly", fetch: "readonly", structuredClone: "readonly",
        queueMicrotask: "readonly",
      },
    },
    rules: {
      // `any` needs a comment saying why: the disable directive is that comment.
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      // An empty catch must say what it swallows (a comment inside the block satisfies this).
      "no-empty": ["error", { allowEmptyCatch: false }],
      "no-control-regex": "off",
    },
  },
  {
    // The command shim is CommonJS (bin/package.json), so `--version` skips the ES module loader.
    files: ["bin/*.js"],
    languageOptions: { sourceType: "commonjs", globals: { require: "readonly", __dirname: "readonly" } },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
