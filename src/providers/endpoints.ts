// Config rows for the endpoints deepcode knows. Another OpenAI- or Anthropic-compatible vendor
// is a row (base URL, the env var its key lives in, its models), never code. Models not in the
// capability table get its conservative row (see capabilities.ts).

export interface EndpointRow {
  id: string;
  baseUrl: string;
  /** The environment variable the key is read from. */
  keyEnv: string;
  protocol: "openai" | "anthropic";
  models: string[];
}

const DEEPSEEK_MODELS = ["deepseek-flash", "deepseek-v4-pro", "deepseek-v4-flash", "deepseek-chat", "deepseek-reasoner"];

export const ENDPOINTS: EndpointRow[] = [
  { id: "deepseek", baseUrl: "https://api.deepseek.com", keyEnv: "DEEPSEEK_API_KEY", protocol: "openai", models: [...DEEPSEEK_MODELS] },
  {
    id: "deepseek-anthropic",
    baseUrl: "https://api.deepseek.com/anthropic",
    keyEnv: "DEEPSEEK_API_KEY",
    protocol: "anthropic",
    models: [...DEEPSEEK_MODELS],
  },
];
