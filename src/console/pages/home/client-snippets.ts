/** The clients the home's "connect a client" panel has a snippet for. */
export const CLIENTS = ["curl", "python", "node", "claude-code", "codex", "gemini-cli"] as const;
export type Client = (typeof CLIENTS)[number];

export interface SnippetInput {
  /** This gateway's base address, without a trailing slash (no /v1). */
  base: string;
  /** A whole token key (sk-…). */
  key: string;
  /** A model the user can call. */
  model: string;
}

/** Each client's ready-to-paste setup for this gateway, as its own documentation asks for it. */
const SNIPPETS: Record<Client, (input: SnippetInput) => string> = {
  curl: ({ base, key, model }) =>
    [
      `curl ${base}/v1/chat/completions \\`,
      `  -H "Authorization: Bearer ${key}" \\`,
      `  -H "Content-Type: application/json" \\`,
      `  -d '{"model": "${model}", "messages": [{"role": "user", "content": "Hello"}]}'`,
    ].join("\n"),
  python: ({ base, key, model }) =>
    [
      "from openai import OpenAI",
      "",
      `client = OpenAI(base_url="${base}/v1", api_key="${key}")`,
      "reply = client.chat.completions.create(",
      `    model="${model}",`,
      `    messages=[{"role": "user", "content": "Hello"}],`,
      ")",
      "print(reply.choices[0].message.content)",
    ].join("\n"),
  node: ({ base, key, model }) =>
    [
      'import OpenAI from "openai";',
      "",
      `const client = new OpenAI({ baseURL: "${base}/v1", apiKey: "${key}" });`,
      "const reply = await client.chat.completions.create({",
      `  model: "${model}",`,
      '  messages: [{ role: "user", content: "Hello" }],',
      "});",
      "console.log(reply.choices[0].message.content);",
    ].join("\n"),
  "claude-code": ({ base, key }) =>
    [`export ANTHROPIC_BASE_URL=${base}`, `export ANTHROPIC_AUTH_TOKEN=${key}`, "claude"].join("\n"),
  codex: ({ base, key, model }) =>
    [
      "# ~/.codex/config.toml",
      `model = "${model}"`,
      'model_provider = "tollgate"',
      "",
      "[model_providers.tollgate]",
      'name = "Tollgate"',
      `base_url = "${base}/v1"`,
      'env_key = "TOLLGATE_KEY"',
      'wire_api = "responses"',
      "",
      "# then, in the shell:",
      `export TOLLGATE_KEY=${key}`,
      "codex",
    ].join("\n"),
  "gemini-cli": ({ base, key }) =>
    [`export GOOGLE_GEMINI_BASE_URL=${base}`, `export GEMINI_API_KEY=${key}`, "gemini"].join("\n"),
};

export const snippetFor = (client: Client, input: SnippetInput): string =>
  SNIPPETS[client]({ ...input, base: input.base.replace(/\/+$/, "") });
