import { expect, test } from "bun:test";
import { join } from "node:path";
import { ZH_MESSAGES } from "../../src/service/i18n/zh";
import { ZH_RELAY_MESSAGES } from "../../src/service/i18n/zh-relay";
import { relayMessages, serverMessages } from "./server-message-sources";

const ROOT = join(import.meta.dir, "../..");

/**
 * Issue #22: every message the server sends to the console, the CLI and the TUI exists in Chinese. A new
 * English message fails this test with its line to add to src/service/i18n/zh.ts.
 */
test("every server message has a Chinese translation in src/service/i18n/zh.ts", () => {
  const found = serverMessages(ROOT);
  expect(found.size).toBeGreaterThan(150);
  const missing = [...found]
    .filter(([message]) => ZH_MESSAGES[message] === undefined)
    .map(([message, where]) => `  ${JSON.stringify(message)}: "…", // ${where}`);
  if (missing.length > 0) console.error(`Add to src/service/i18n/zh.ts:\n${missing.join("\n")}`);
  expect(missing).toEqual([]);
});

test("every relay error message has a Chinese translation in src/service/i18n/zh-relay.ts (for RelayErrorLanguage zh)", () => {
  const found = relayMessages(ROOT);
  expect(found.size).toBeGreaterThan(100);
  const missing = [...found]
    .filter(([message]) => ZH_RELAY_MESSAGES[message] === undefined && ZH_MESSAGES[message] === undefined)
    .map(([message, where]) => `  ${JSON.stringify(message)}: "…", // ${where}`);
  if (missing.length > 0) console.error(`Add to src/service/i18n/zh-relay.ts:\n${missing.join("\n")}`);
  expect(missing).toEqual([]);
});

test("a translation uses only the placeholders of its English message and is never empty", () => {
  const wrong = Object.entries({ ...ZH_MESSAGES, ...ZH_RELAY_MESSAGES }).filter(([english, chinese]) => {
    const allowed = new Set(english.match(/\{\d+\}/g) ?? []);
    return !chinese.trim() || (chinese.match(/\{\d+\}/g) ?? []).some((p) => !allowed.has(p));
  });
  expect(wrong).toEqual([]);
});
