import { RelayError } from "../../service/relay/errors";
import type { InboundCall } from "./inbound-request";
import { pivotEventsOf } from "./pivot-events";
import { wholeStreamBodyOf } from "./whole-stream";

/**
 * The pivot reply the pipeline delivered, in the client's dialect: a stream through the dialect's event writer,
 * a JSON reply through its reply mapper (already billed: only the shape changes here).
 */
export async function inDialect(
  response: Response,
  { dialect, route, body, embedding }: InboundCall,
  model: string,
  stream: boolean,
): Promise<Response> {
  const headers = new Headers(response.headers);
  if (stream && headers.get("content-type")?.includes("text/event-stream")) {
    if (dialect.streamContentType) headers.set("content-type", dialect.streamContentType(route));
    const whole = dialect.wholeStreamFromChat && wholeStreamBodyOf(response);
    const translated = whole
      ? dialect.wholeStreamFromChat!(whole, model, { body, route }, pivotEventsOf(whole))
      : dialect.streamFromChat(response.body!, model, { body, route });
    return new Response(translated, { status: response.status, headers });
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
