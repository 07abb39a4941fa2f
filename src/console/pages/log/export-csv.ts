import { i18n } from "@lingui/core";
import { t } from "@lingui/core/macro";
import { currentUser } from "../../state/user";
import { toast } from "../../state/toasts";

/** The file name the server suggests in Content-Disposition, or `fallback`. */
const fileNameOf = (response: Response, fallback: string) =>
  /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? fallback;

/**
 * Downloads a CSV export. The route needs the New-Api-User header besides the session cookie, so the file
 * is fetched here and handed to the browser as a download; a refusal (JSON) shows as an error toast.
 */
export async function downloadCsv(path: string): Promise<void> {
  const headers: Record<string, string> = { "Accept-Language": i18n.locale || "zh" };
  if (currentUser.peek()) headers["New-Api-User"] = String(currentUser.peek()!.id);
  let response: Response;
  try {
    response = await fetch(path, { headers, credentials: "same-origin" });
  } catch (error) {
    return toast.error(t`error: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!response.ok || !response.headers.get("content-type")?.startsWith("text/csv")) {
    const reply = (await response.json().catch(() => ({}))) as { message?: string };
    return toast.error(reply.message || t`error: ${response.status}`);
  }
  const url = URL.createObjectURL(await response.blob());
  const link = Object.assign(document.createElement("a"), { href: url, download: fileNameOf(response, "logs.csv") });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
