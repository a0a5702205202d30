// Colour through util.styleText, honouring NO_COLOR and non-TTY output: plain text then.
import { styleText } from "node:util";

type Format = Parameters<typeof styleText>[0];

export function colourEnabled(stream: NodeJS.WritableStream = process.stdout, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "0") return true;
  return (stream as NodeJS.WriteStream).isTTY === true;
}

export interface Style {
  enabled: boolean;
  (format: Format, text: string): string;
}

export function makeStyle(enabled: boolean): Style {
  // deepcode decides itself (colourEnabled) whether to colour; styleText's own check would
  // look at process.stdout even when the text goes to stderr.
  const f = ((format: Format, text: string) => (enabled && text ? styleText(format, text, { validateStream: false }) : text)) as Style;
  f.enabled = enabled;
  return f;
}
