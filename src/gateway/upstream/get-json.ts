import { RefusedAddressError, type UpstreamGate } from "../../service/egress/gate";
import { gatedFetch } from "../../service/egress/gated-fetch";
import { refuse } from "../../service/errors";

const TIMEOUT_MS = 15_000;

/**
 * GET of an upstream's JSON (a model list, a balance), the key in `headers`, at an address `gate` allows. Failures are told by kind and
 * status only (and the policy's refusal): upstream error text can echo the key and the URL is the operator's,
 * so neither reaches the message.
 */
export async function getUpstreamJson(
  url: string,
  headers: Record<string, string>,
  what: string,
  gate: UpstreamGate,
): Promise<unknown> {
  let response: Response;
  try {
    const init = {
      headers: { ...headers, accept: "application/json" },
      redirect: "manual",
      signal: AbortSignal.timeout(TIMEOUT_MS),
    } as const;
    response = await gatedFetch(url, init, gate);
  } catch (error) {
    return refuse(
      `${what} failed: ${error instanceof RefusedAddressError ? error.message : "the upstream could not be reached"}`,
    );
  }
  if (!response.ok) {
    await response.body?.cancel();
    refuse(`${what} failed: the upstream answered HTTP ${response.status}`);
  }
  try {
    return await response.json();
  } catch {
    return refuse(`${what} failed: the upstream reply is not JSON`);
  }
}
