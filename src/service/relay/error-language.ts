import type { ServiceContext } from "../context";
import { type MessageLanguage, translateMessage } from "../i18n/translate";
import { asWritten, type StreamWording } from "../../shared/stream-wording";

/** The language of relay (/v1, /v1beta) error messages: English, as API clients expect, unless RelayErrorLanguage says zh. */
export const relayErrorLanguage = (ctx: ServiceContext): MessageLanguage =>
  ctx.options.raw("RelayErrorLanguage") === "zh" ? "zh" : "en";

const inChinese: StreamWording = (english) => translateMessage(english, "zh");

/** How the gateway's own messages inside a streamed reply are worded, per RelayErrorLanguage (from the catalog). */
export const streamWording = (ctx: ServiceContext): StreamWording =>
  relayErrorLanguage(ctx) === "zh" ? inChinese : asWritten;
