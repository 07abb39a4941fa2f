import { RelayError } from "../../service/relay/errors";
import { ServiceError } from "../../service/errors";
import { type MessageLanguage, translateMessage } from "../../service/i18n/translate";
import { isTooDeep, TOO_DEEP_MESSAGE } from "../http/too-deep";
import type { DialectErrorFacts } from "./dialects/types";

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8" };

/**
 * An error in OpenAI's shape: {error:{message, type, param, code}} with the request id in the message; or in
 * another dialect's shape (`shape`), with the same status. The message is in `language` (RelayErrorLanguage).
 */
export function relayErrorResponse(
  error: unknown,
  requestId: string,
  language: MessageLanguage,
  shape?: (facts: DialectErrorFacts) => unknown,
): Response {
  let status = 500;
  let message = "internal server error, contact the administrator";
  let type = "tollgate_error";
  let code = "internal_error";
  const headers: Record<string, string> = { ...JSON_HEADERS, "x-tollgate-request-id": requestId };
  if (error instanceof RelayError) {
    ({ status, message, type, code } = error);
    if (error.retryAfter !== undefined) headers["retry-after"] = String(error.retryAfter);
  } else if (isTooDeep(error)) {
    status = 400;
    message = TOO_DEEP_MESSAGE;
    type = "invalid_request_error";
    code = "invalid_request";
  } else if (error instanceof ServiceError) {
    status = error.status === 200 ? 400 : error.status;
    message = error.message;
    type = "invalid_request_error";
    code = status === 413 ? "request_too_large" : "invalid_request";
  } else {
    console.error("[relay] unexpected error:", error instanceof Error ? error.message : error);
  }
  message = translateMessage(message, language);
  message = language === "zh" ? `${message}（请求 ID：${requestId}）` : `${message} (request id: ${requestId})`;
  const body = shape ? shape({ status, message, type, code }) : { error: { message, type, param: "", code } };
  return new Response(JSON.stringify(body), { status, headers });
}
