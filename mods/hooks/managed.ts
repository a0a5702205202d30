// Built-in mod: the managed policy's hooks (and those of plugins it enables), in the prepend
// tier where nothing can bypass them (index.ts has the rest).
import { hooksPlugin } from "./index.js";

export default hooksPlugin("managed");
