/** How Claude Code runs headless against a custom Anthropic base URL. */
import { type CliSandbox, runCli } from "./run-cli";

export const CLAUDE_MODEL = "claude-sonnet-4-5";
export const CLAUDE_SMALL_MODEL = "claude-haiku-4-5";

/** `auth`: the key as ANTHROPIC_API_KEY (sent as x-api-key) or ANTHROPIC_AUTH_TOKEN (sent as a Bearer token). */
export function runClaudeCode(
  sandbox: CliSandbox,
  baseUrl: string,
  apiKey: string,
  task: string,
  auth: "x-api-key" | "bearer" = "x-api-key",
) {
  return runCli("claude", ["-p", task, "--output-format", "text"], sandbox, {
    ANTHROPIC_BASE_URL: baseUrl,
    [auth === "bearer" ? "ANTHROPIC_AUTH_TOKEN" : "ANTHROPIC_API_KEY"]: apiKey,
    ANTHROPIC_MODEL: CLAUDE_MODEL,
    ANTHROPIC_SMALL_FAST_MODEL: CLAUDE_SMALL_MODEL,
    DISABLE_TELEMETRY: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_ERROR_REPORTING: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    CLAUDE_CODE_IDE_SKIP_AUTO_INSTALL: "1",
  });
}
