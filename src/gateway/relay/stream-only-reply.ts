import { maskUpstreamText } from "../../service/relay/mask";
import { RelayError } from "../../service/relay/errors";
import type { UpstreamReply } from "../upstream/reply";
import { foldChatStream } from "./providers/folded-stream";
import type { Provider, UpstreamError } from "./providers/types";

/**
 * The whole chat.completion of a family whose upstream answers only as a stream. Such upstreams (Coze) also
 * report some errors as a 2xx JSON body instead of a stream: that is the upstream's error, said as such (masked).
 */
export async function streamOnlyReply(
  response: UpstreamReply,
  provider: Provider,
  model: string,
  secrets: string[],
): Promise<Record<string, unknown>> {
  if ((response.header("content-type") ?? "").includes("text/event-stream"))
    return foldChatStream(provider.mapStream!(response.stream(), model), model);
  let said: UpstreamError = {};
  try {
    said = provider.errorOf(JSON.parse(await response.text()));
  } catch {}
  const message = maskUpstreamText(said.message ?? "no reason given", secrets);
  throw new RelayError(
    502,
    `the upstream refused the call: ${message}`,
    said.code ?? "bad_response_body",
    "upstream_error",
  );
}
