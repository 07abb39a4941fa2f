/**
 * Whether an upstream's answer to `POST /v1/responses` says it has no such endpoint (404 Not Found, 405 Method
 * Not Allowed, 501 Not Implemented), so the call should be translated to chat completions instead. Any other
 * status (400, 401, 429, 5xx…) is the endpoint answering and is relayed as it is.
 */
export const lacksResponses = (status: number): boolean => status === 404 || status === 405 || status === 501;
