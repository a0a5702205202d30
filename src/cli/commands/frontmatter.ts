// The frontmatter parser lives in the contract (src/contract/frontmatter.ts): mods read skill
// and agent files with it too. Kept here for the CLI's existing imports.
export { listField, parseFrontmatter, type Frontmatter, type FrontmatterValue } from "../../contract/frontmatter.js";
