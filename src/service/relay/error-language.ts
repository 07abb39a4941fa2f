import type { ServiceContext } from "../context";
import type { MessageLanguage } from "../i18n/translate";

/** The language of relay (/v1, /v1beta) error messages: English, as API clients expect, unless RelayErrorLanguage says zh. */
export const relayErrorLanguage = (ctx: ServiceContext): MessageLanguage =>
  ctx.options.raw("RelayErrorLanguage") === "zh" ? "zh" : "en";
