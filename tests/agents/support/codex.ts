/** How Codex CLI runs headless (`codex exec`) against a custom Responses-API provider. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type CliSandbox, runCli } from "./run-cli";

export const CODEX_MODEL = "gpt-4o-mini";
const KEY_ENV = "TOLLGATE_KEY";

/** `baseUrl` ends in /v1; Codex appends /responses. */
export function codexConfig(baseUrl: string) {
  return `model = "${CODEX_MODEL}"
model_provider = "tollgate"
approval_policy = "never"
sandbox_mode = "danger-full-access"
check_for_update_on_startup = false

[analytics]
enabled = false

# These reach github.com and chatgpt.com at start-up (plugin marketplace, ChatGPT apps).
[features]
plugins = false
remote_plugin = false
plugin_sharing = false
apps = false
in_app_updates = false

[model_providers.tollgate]
name = "Tollgate"
base_url = "${baseUrl}"
env_key = "${KEY_ENV}"
wire_api = "responses"
# Loopback never drops a call; a failure should fail the test at once, not after back-offs.
request_max_retries = 0
stream_max_retries = 0
`;
}

export function runCodex(sandbox: CliSandbox, baseUrl: string, apiKey: string, task: string) {
  const codexHome = join(sandbox.home, ".codex");
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(join(codexHome, "config.toml"), codexConfig(baseUrl));
  return runCli("codex", ["exec", "--skip-git-repo-check", task], sandbox, {
    CODEX_HOME: codexHome,
    [KEY_ENV]: apiKey,
  });
}
