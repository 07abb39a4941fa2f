import { failure, json } from "./envelope";

/** Paths that belong to an API, never to the console: an unknown one is a JSON 404, not the console's page. */
export const API_PATH = /^\/(api|v1|v1beta|pg|dashboard|mj|suno|(?:fast|turbo|relax)\/mj)(\/|$)/;

/** The Midjourney relay's paths, a mode's included: their errors are {description, type, code}. */
const MJ_PATH = /^\/(?:(?:fast|turbo|relax)\/)?mj(\/|$)/;

/** The 404 for a path no route serves, in the shape of the API the path belongs to. */
export function notFoundReply(method: string, path: string): Response {
  const message = `Invalid URL (${method} ${path})`;
  if (/^\/v1beta(\/|$)/.test(path)) return json(404, { error: { code: 404, message, status: "NOT_FOUND" } });
  // midjourney-proxy's code 3: not found.
  if (MJ_PATH.test(path)) return json(404, { description: message, type: "invalid_request_error", code: 3 });
  if (/^\/(v1|pg|dashboard|mj|suno)(\/|$)/.test(path)) {
    return json(404, { error: { message, type: "invalid_request_error", param: "", code: "" } });
  }
  return json(404, failure(message));
}
