import { i18n } from "@lingui/core";
import { translateMessage } from "../../service/i18n/translate";

/** The first line of an error's message: the service's refusal as the API words it, in the TUI's language. */
export const errorText = (error: unknown): string =>
  translateMessage(
    (error instanceof Error ? error.message : String(error)).split("\n")[0]!,
    i18n.locale === "en" ? "en" : "zh",
  );
