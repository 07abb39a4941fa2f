import { RefusedAddressError } from "../../../service/egress/gate";
import { gatedFetch } from "../../../service/egress/gated-fetch";
import { upstreamGate } from "../../../service/egress/site-gate";
import type { OptionStore } from "../../../service/options/store";
import type { UpstreamRequest } from "../providers/types";

/** Task replies are small JSON; a longer one is cut (and then fails to parse). */
const REPLY_LIMIT = 4 * 1024 * 1024;

/** A task upstream's answer: its status and parsed JSON (undefined when not JSON), or why there was none. */
export type TaskUpstreamReply = { ok: true; status: number; json: unknown } | { ok: false; message: string };

/** Sends a task family's request (a submission or a fetch) under the upstream address policy. */
export async function callTaskUpstream(
  options: OptionStore,
  request: UpstreamRequest,
  timeoutMs: number,
): Promise<TaskUpstreamReply> {
  if (!request.url.startsWith("http")) return { ok: false, message: "the channel has no base URL configured" };
  try {
    const response = await gatedFetch(
      request.url,
      {
        method: request.method ?? "POST",
        headers: request.headers,
        body: request.method === "GET" ? undefined : request.body,
        redirect: "manual",
        signal: timeoutMs > 0 ? AbortSignal.timeout(timeoutMs) : undefined,
      },
      upstreamGate(options),
    );
    const text = (await response.text()).slice(0, REPLY_LIMIT);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { ok: true, status: response.status, json };
  } catch (error) {
    if (error instanceof RefusedAddressError) return { ok: false, message: error.message };
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    return {
      ok: false,
      message: timedOut ? "the upstream did not answer in time" : "could not connect to the upstream",
    };
  }
}
