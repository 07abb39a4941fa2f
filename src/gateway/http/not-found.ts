import { failure, json } from "./envelope";

/** Paths that belong to an API, never to the console: an unknown one is a JSON 404, not the console's page. */
export const API_PATH = /^\/(api|v1|v1beta|pg|dashboard|mj|suno)(\/|$)/;

/** The 404 for a path no route serves, in the shape of the API the path belongs to. */
export function notFoundReply(method: string, path: string): Response {
  const message = `Invalid URL (${method} ${path})`;
  if (/^\/v1beta(\/|$)/.test(path)) return json(404, { error: { code: 404, message, status: "NOT_FOUND" } });
  if (/^\/(v1|pg|dashboard|mj|suno)(\/|$)/.test(path)) {
    return json(404, { error: { message, type: "invalid_request_error", param: "", code: "" } });
  }
  return json(404, failure(message));
}
