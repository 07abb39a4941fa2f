import { describe, expect, test } from "bun:test";
import { CLIENTS, snippetFor } from "../../src/console/pages/home/client-snippets";

const input = { base: "https://gw.example.com/", key: "sk-abc", model: "gpt-4o-mini" };

describe("connect-a-client snippets (issue #22)", () => {
  test("every client's snippet carries the user's own base address and key", () => {
    for (const client of CLIENTS) {
      const text = snippetFor(client, input);
      expect(text).toContain("https://gw.example.com");
      expect(text).not.toContain("https://gw.example.com//");
      expect(text).toContain("sk-abc");
    }
  });

  test("OpenAI-style clients get /v1; Claude Code and Gemini CLI their own variables on the bare address", () => {
    expect(snippetFor("curl", input)).toContain("https://gw.example.com/v1/chat/completions");
    expect(snippetFor("python", input)).toContain('OpenAI(base_url="https://gw.example.com/v1", api_key="sk-abc")');
    expect(snippetFor("node", input)).toContain('baseURL: "https://gw.example.com/v1", apiKey: "sk-abc"');
    expect(snippetFor("claude-code", input)).toBe(
      "export ANTHROPIC_BASE_URL=https://gw.example.com\nexport ANTHROPIC_AUTH_TOKEN=sk-abc\nclaude",
    );
    expect(snippetFor("gemini-cli", input)).toBe(
      "export GOOGLE_GEMINI_BASE_URL=https://gw.example.com\nexport GEMINI_API_KEY=sk-abc\ngemini",
    );
  });

  test("Codex CLI: a model_provider in config.toml with base_url and wire_api = responses", () => {
    const text = snippetFor("codex", input);
    expect(text).toContain('model_provider = "tollgate"');
    expect(text).toContain("[model_providers.tollgate]");
    expect(text).toContain('base_url = "https://gw.example.com/v1"');
    expect(text).toContain('wire_api = "responses"');
    expect(text).toContain('env_key = "TOLLGATE_KEY"');
    expect(text).toContain("export TOLLGATE_KEY=sk-abc");
  });
});
