import { RelayError } from "../../service/relay/errors";
import type { WholePivot } from "./dialects/types";
import type { InboundCall } from "./inbound-request";

/**
 * The pivot reply the pipeline delivered, in the client's dialect: a stream through the dialect's event writer,
 * a JSON reply through its reply mapper (already billed: only the shape changes here).
 */
export async function inDialect(
  response: Response,
  { dialect, route, body, embedding, wording }: InboundCall,
  model: string,
  stream: boolean,
): Promise<Response> {
  const headers = new Headers(response.headers);
  if (stream && headers.get("content-type")?.includes("text/event-stream")) {
    if (dialect.streamContentType) headers.set("content-type", dialect.streamContentType(route));
    return new Response(dialect.streamFromChat(response.body!, model, { body, route, wording }), {
      status: response.status,
      headers,
    });
  }
  let reply: Record<string, any>;
  try {
    reply = await response.json();
  } catch {
    throw new RelayError(502, "the upstream's reply could not be read", "bad_response_body", "upstream_error");
  }
  headers.set("content-type", "application/json");
  const mapped =
    embedding && dialect.embeddings
      ? dialect.embeddings.fromOpenAI(reply, route)
      : dialect.fromChat(reply, model, { body, route });
  return new Response(JSON.stringify(mapped), { status: response.status, headers });
}

/**
 * A pivot stream that arrived whole (already billed), in the client's dialect at once: `headers` are the stream
 * reply's, the content type the dialect's.
 */
export function wholeInDialect(
  pivot: WholePivot,
  { dialect, route, body, wording }: InboundCall,
  model: string,
  headers: Record<string, string>,
): Response {
  if (dialect.streamContentType) headers["content-type"] = dialect.streamContentType(route);
  return new Response(dialect.wholeStreamFromChat!(pivot, model, { body, route, wording }), { status: 200, headers });
}
