import { i18n } from "@lingui/core";
import { messages as en } from "./locales/en/messages";
import { messages as zh } from "./locales/zh/messages";

i18n.load({ en, zh });
i18n.activate("zh");

export { i18n };
