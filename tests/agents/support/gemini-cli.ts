/** How Gemini CLI runs headless (`gemini -p`) against a custom Gemini API base URL. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type CliSandbox, runCli } from "./run-cli";

export const GEMINI_MODEL = "gemini-2.5-flash";

/** API-key auth chosen up front, and nothing that phones home. */
export const GEMINI_SETTINGS = {
  security: { auth: { selectedType: "gemini-api-key" } },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  general: { disableAutoUpdate: true, disableUpdateNag: true },
  ide: { enabled: false },
};

export function runGeminiCli(sandbox: CliSandbox, baseUrl: string, apiKey: string, task: string) {
  const settingsDir = join(sandbox.home, ".gemini");
  mkdirSync(settingsDir, { recursive: true });
  writeFileSync(join(settingsDir, "settings.json"), JSON.stringify(GEMINI_SETTINGS));
  return runCli("gemini", ["-m", GEMINI_MODEL, "-p", task], sandbox, {
    GOOGLE_GEMINI_BASE_URL: baseUrl,
    GEMINI_API_KEY: apiKey,
    GEMINI_CLI_TRUST_WORKSPACE: "true",
  });
}
