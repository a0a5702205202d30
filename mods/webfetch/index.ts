// Built-in mod: webfetch — Claude Code's WebFetch (`url`, `prompt`): a web page as text.
//
// Every hop is an `http.fetch` on the chain (ctx.fetch), so the fence judges it by the
// WebFetch(domain:…) rules and the core never reaches a loopback, link-local or private address
// unless an allow rule names that host, a person said yes to this call, or it is a background
// job's forwarded dev server (src/cli/permissions/fence.ts privateFetchAllowed). The gate asks per host (WebFetch is not read-only: it
// sends a request out), and `a` remembers `WebFetch(domain:<host>)`. A redirect on the same host
// is followed (each hop through the chain again); one to another host, or from https to http,
// is not: the model is told where it leads and calls WebFetch again, which asks about that host.
//
// `prompt`: Claude Code runs a small model over the page. deepcode does not: the page's text
// comes back with the prompt above it as the question, and the model answers it itself. A second
// model call would cost a request of its own (the page at the uncached price, plus its output)
// to save the page's tokens in the log, which DeepSeek's cache makes cheap after the first
// request; it would also answer from a summary the model cannot check. The text is bounded
// (MAX_CHARS); the whole of a longer page is kept beside the session for Read.
//
// Pages are cached for 15 minutes per URL, in memory (a repeated fetch costs no request).
// WebFetch is on demand (ToolSpec.onDemand): one line in the prefix, called through UseTool.
// Settings `pluginConfig.webfetch.tool: false` leaves it out.

import type { JsonObject, Plugin, PluginApi, ToolContext, ToolOutput } from "../../src/contract/index.js";
import { htmlToText } from "./html.js";

/** Text shown to the model: about 5k tokens of prose. More of a page is rarely what a question
 *  needs; the rest is kept in a file the model can Read. */
const MAX_CHARS = 20_000;
/** Raw bytes read of one response: a page larger than this is cut before conversion. */
const MAX_BYTES = 5_000_000;
const MAX_HOPS = 10;
const CACHE_MS = 15 * 60_000;
const CACHE_ENTRIES = 64;
const TIMEOUT_MS = 30_000;

const plugin: Plugin = {
  id: "webfetch",
  description: "WebFetch: a web page as readable text, asked per host, never reaching private addresses unasked",
  register(api) {
    if (api.config.tool === false) return;
    new WebFetchMod(api).install();
  },
};

export default plugin;

interface Page {
  url: string;
  status: number;
  type: string;
  title: string;
  text: string;
  at: number;
}

class WebFetchMod {
  private readonly cache = new Map<string, Page>();

  constructor(private readonly api: PluginApi) {}

  install(): void {
    this.api.tool({
      name: "WebFetch",
      description: "Fetch a web page (http or https) and return its text, with prompt as the question to answer from it.",
      onDemand: "{url, prompt}: fetch a web page as text, to answer prompt from it",
      inputSchema: {
        type: "object",
        properties: {
          url: { type: "string", description: "The page's full URL" },
          prompt: { type: "string", description: "What you want to learn from it" },
        },
        required: ["url", "prompt"],
      },
      readOnly: false,
      concurrent: true,
      preview: async (input) => `GET ${String(input.url)}\nfor: ${String(input.prompt ?? "")}`,
      run: (input, ctx) => this.fetch(input as JsonObject, ctx),
    });
  }

  private async fetch(input: JsonObject, ctx: ToolContext): Promise<ToolOutput> {
    const asked = String(input.url ?? "").trim();
    const prompt = String(input.prompt ?? "").trim();
    let url: URL;
    try {
      url = new URL(asked);
    } catch {
      return fail(`'${asked}' is not a URL. Give a full http:// or https:// address.`, "WebFetch: not a URL");
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") return fail(`Only http and https pages can be fetched, not ${url.protocol}`, "WebFetch: not http(s)");
    url.hash = "";
    const cached = this.cached(url.href);
    const page = cached ?? (await this.load(url, ctx));
    if ("error" in page) return page.error;
    if (!cached) this.remember(url.href, page);
    return this.show(page, prompt, ctx, cached !== undefined);
  }

  /** Follow the hops on the page's own host; anything else is the model's next call. */
  private async load(start: URL, ctx: ToolContext): Promise<Page | { error: ToolOutput }> {
    let url = start;
    for (let hop = 0; hop <= MAX_HOPS; hop++) {
      let r;
      try {
        r = await ctx.fetch({ url: url.href, timeoutMs: TIMEOUT_MS, maxBytes: MAX_BYTES, headers: { accept: "text/html, text/markdown, text/plain, application/json;q=0.9, */*;q=0.5", "user-agent": "deepcode-webfetch" } });
      } catch (err) {
        return { error: fail(`Could not fetch ${url.href}: ${err instanceof Error ? err.message : String(err)}`, `WebFetch ${url.host}: failed`) };
      }
      const location = r.headers.location;
      if (r.status >= 300 && r.status < 400 && location) {
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          return { error: fail(`${url.href} redirects to '${location}', which is not a URL.`, `WebFetch ${url.host}: bad redirect`) };
        }
        next.hash = "";
        const downgrade = url.protocol === "https:" && next.protocol === "http:";
        if (next.host !== url.host || downgrade || (next.protocol !== "http:" && next.protocol !== "https:")) {
          return {
            error: {
              content: `${url.href} redirects (${r.status}) to ${next.href}, ${downgrade ? "which drops https" : "on another host"}. It was not followed. To read it, call WebFetch again with that URL.`,
              summary: `WebFetch ${url.host}: redirects to ${next.host}`,
              meta: { status: r.status, redirect: next.href },
            },
          };
        }
        url = next;
        continue;
      }
      const type = (r.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
      if (r.status >= 400) {
        const said = oneLine(isHtml(type, r.body) ? htmlToText(r.body, url.href).text : r.body, 300);
        return { error: fail(`${url.href} answered ${r.status}${said ? `: ${said}` : ""}`, `WebFetch ${url.host}: ${r.status}`) };
      }
      if (!isText(type, r.body)) return { error: fail(`${url.href} is ${type || "not text"} (not a page WebFetch reads).`, `WebFetch ${url.host}: ${type || "binary"}`) };
      const converted = isHtml(type, r.body) ? htmlToText(r.body, url.href) : { title: "", text: r.body.trim() };
      const cut = r.truncated ? `\n\n[… the page is larger than ${MAX_BYTES / 1e6} MB: cut there]` : "";
      return { url: url.href, status: r.status, type, title: converted.title, text: converted.text + cut, at: Date.now() };
    }
    return { error: fail(`${start.href} redirected more than ${MAX_HOPS} times.`, `WebFetch ${start.host}: too many redirects`) };
  }

  private async show(page: Page, prompt: string, ctx: ToolContext, cached: boolean): Promise<ToolOutput> {
    const head = [`URL: ${page.url}`, ...(page.title ? [`Title: ${page.title}`] : []), ...(prompt ? [`Question: ${prompt}`] : [])].join("\n");
    let body = page.text || "(the page has no text)";
    if (body.length > MAX_CHARS) {
      const kept = await ctx.keepOutput(`${head}\n\n${page.text}`);
      const where = kept ? `the whole page (${page.text.length} characters) is in ${kept}: Read it with an offset for more` : `${page.text.length - MAX_CHARS} more characters not shown`;
      body = `${body.slice(0, MAX_CHARS)}\n\n[… cut at ${MAX_CHARS} characters; ${where}]`;
    }
    const host = new URL(page.url).host;
    return {
      content: `${head}\n\n${body}`,
      summary: `WebFetch ${host}${new URL(page.url).pathname} → ${page.status}, ${page.text.length} characters${cached ? " (cached)" : ""}`,
      meta: { url: page.url, status: page.status, chars: page.text.length, cached },
    };
  }

  private cached(url: string): Page | undefined {
    const p = this.cache.get(url);
    if (p && Date.now() - p.at < CACHE_MS) return p;
    if (p) this.cache.delete(url);
    return undefined;
  }

  private remember(url: string, page: Page): void {
    this.cache.set(url, page);
    if (page.url !== url) this.cache.set(page.url, page);
    while (this.cache.size > CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value as string);
  }
}

function fail(content: string, summary: string): ToolOutput {
  return { content, isError: true, summary };
}

function isHtml(type: string, body: string): boolean {
  return type === "text/html" || type === "application/xhtml+xml" || (type === "" && /^\s*<(?:!doctype html|html)/i.test(body));
}

function isText(type: string, body: string): boolean {
  if (type === "") return !body.slice(0, 1000).includes("\u0000");
  return type.startsWith("text/") || /\b(?:json|xml|javascript|yaml|toml|x-sh)\b/.test(type);
}

function oneLine(s: string, n: number): string {
  const l = s.replace(/\s+/g, " ").trim();
  return l.length > n ? `${l.slice(0, n - 1)}…` : l;
}
