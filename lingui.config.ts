import { defineConfig } from "@lingui/cli";
import { formatter } from "@lingui/format-po";

// The console and the TUI share one set of catalogs.
export default defineConfig({
  sourceLocale: "en",
  locales: ["en", "zh"],
  fallbackLocales: { default: "en" },
  catalogs: [
    {
      path: "<rootDir>/src/console/locales/{locale}/messages",
      include: ["<rootDir>/src/console", "<rootDir>/src/cli/tui"],
    },
  ],
  // File names without line numbers, so catalogs change only when messages do.
  format: formatter({ lineNumbers: false }),
});
