// The token estimator lives in src/lib (mods count tokens too); core files import it here.
export { estimateTokens, floorToCacheUnit } from "../lib/tokens.js";
