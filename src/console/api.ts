import { i18n } from "@lingui/core";
import { t } from "@lingui/core/macro";
import { navigate } from "wouter/use-browser-location";
import { forgetUser, currentUser } from "./state/user";
import { toast } from "./state/toasts";

/** The management API's reply: {success, message, data}. */
interface Reply<T> {
  success: boolean;
  message: string;
  data: T;
}

export type Result<T> = { ok: true; data: T; message: string } | { ok: false; message: string };

export interface CallOptions {
  /** Leave a refusal's message to the caller instead of the error toast. */
  quiet?: boolean;
}

function headers(body: unknown): Record<string, string> {
  // The server words its messages in the console's language (issue #22: one language for the product).
  const h: Record<string, string> = { "Cache-Control": "no-store", "Accept-Language": i18n.locale || "zh" };
  const user = currentUser.peek();
  if (user) h["New-Api-User"] = String(user.id);
  if (body !== undefined) h["Content-Type"] = "application/json";
  return h;
}

/** The error catalogue (spec §8) for statuses whose body is not worth reading. */
function catalogued(status: number): string | undefined {
  if (status === 429) return t`too many requests, please try again later`;
  if (status === 500) return t`internal server error, contact the administrator`;
  return undefined;
}

function expireSession(): void {
  forgetUser();
  navigate("/login?expired=true");
}

const fail = (message: string, options: CallOptions): Result<never> => {
  if (!options.quiet) toast.error(message);
  return { ok: false, message };
};

async function call<T>(method: string, path: string, body: unknown, options: CallOptions): Promise<Result<T>> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: headers(body),
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
      credentials: "same-origin",
    });
  } catch (error) {
    return fail(t`error: ${error instanceof Error ? error.message : String(error)}`, options);
  }
  if (response.status === 401) {
    expireSession();
    return { ok: false, message: t`not logged in or session expired` };
  }
  if (response.status === 405) {
    toast.info(t`this site is demo only, no server`);
    return { ok: false, message: t`this site is demo only, no server` };
  }
  const known = catalogued(response.status);
  if (known) return fail(known, options);
  let reply: Reply<T>;
  try {
    reply = (await response.json()) as Reply<T>;
  } catch {
    return fail(t`error: ${response.status} ${response.statusText}`, options);
  }
  if (!reply.success) return fail(reply.message || t`error: ${response.status}`, options);
  return { ok: true, data: reply.data, message: reply.message };
}

export const api = {
  get: <T>(path: string, options: CallOptions = {}) => call<T>("GET", path, undefined, options),
  post: <T>(path: string, body: unknown = {}, options: CallOptions = {}) => call<T>("POST", path, body, options),
  put: <T>(path: string, body: unknown, options: CallOptions = {}) => call<T>("PUT", path, body, options),
  delete: <T>(path: string, options: CallOptions = {}) => call<T>("DELETE", path, undefined, options),
};

/** A query string from the defined values. */
export function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== "") search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : "";
}
