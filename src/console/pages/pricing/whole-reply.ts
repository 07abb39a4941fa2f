import { t } from "@lingui/core/macro";
import { currentUser } from "../../state/user";
import { toast } from "../../state/toasts";

type Whole<T> = T & { success: boolean; message: string };

/**
 * A management call whose reply carries fields beside `data` (GET /api/pricing: group_ratio; POST
 * /api/user/pay: url), so the whole body is answered. A refusal shows as an error toast and gives undefined.
 */
export async function wholeReply<T>(path: string, body?: unknown): Promise<T | undefined> {
  const user = currentUser.peek();
  const headers: Record<string, string> = user ? { "New-Api-User": String(user.id) } : {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  try {
    const response = await fetch(path, {
      method: body === undefined ? "GET" : "POST",
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
    const reply = (await response.json()) as Whole<T>;
    if (reply.success) return reply;
    toast.error(reply.message || t`error: ${response.status}`);
  } catch (error) {
    toast.error(t`error: ${error instanceof Error ? error.message : String(error)}`);
  }
  return undefined;
}
