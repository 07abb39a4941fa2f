import { parsedEvent } from "../../sse";
import type { NativePassage, NativeStreamTally } from "../types";
import { streamFormOf } from "./stream";
import { pivotUsageOf } from "./usage";

/** The text of one GenerateContentResponse: its candidates' text parts (thoughts included). */
const responseText = (reply: any): string =>
  (Array.isArray(reply?.candidates) ? reply.candidates : [])
    .flatMap((c: any) => (Array.isArray(c?.content?.parts) ? c.content.parts : []))
    .map((p: any) => (typeof p?.text === "string" ? p.text : ""))
    .join("");

/** A JSON reply, or a streamed JSON array read whole: its last usageMetadata (Gemini's counts are cumulative). */
const lastUsage = (reply: any) => {
  const responses = Array.isArray(reply) ? reply : [reply];
  const meta = responses.findLast((r: any) => r?.usageMetadata)?.usageMetadata;
  return meta ? pivotUsageOf(meta) : undefined;
};

/**
 * Reads a Gemini stream for billing, one GenerateContentResponse per event: every response carries the usage so
 * far, the one with a finishReason the final count.
 */
class GenerateContentTally implements NativeStreamTally {
  private meta: unknown;
  private finished = false;
  text = "";

  event(data: string): void {
    const response = parsedEvent(data);
    if (response === undefined) return;
    if (response?.usageMetadata) this.meta = response.usageMetadata;
    if (response?.candidates?.some((c: any) => c?.finishReason)) this.finished = true;
    this.text += responseText(response);
  }

  usage() {
    return this.finished && this.meta ? pivotUsageOf(this.meta) : undefined;
  }
}

/** The models in the body of an embedding call name the upstream model too. */
function withModel(json: Record<string, any>, model: string): Record<string, any> {
  const named = `models/${model}`;
  if (Array.isArray(json.requests))
    return { ...json, requests: json.requests.map((r: any) => ({ ...r, model: named })) };
  return json.model === undefined ? json : { ...json, model: named };
}

/** Gemini inbound on a Gemini channel: the same action on the upstream model, under the channel's API version. */
export const generateContentPassage: NativePassage = {
  path: (route, model) =>
    `/models/${encodeURIComponent(model)}:${route.action}${route.stream && streamFormOf(route.url).form === "sse" ? "?alt=sse" : ""}`,
  body: (json, raw, model) => {
    const sent = withModel(json, model);
    return sent === json ? raw : JSON.stringify(sent);
  },
  forwardedHeaders: [],
  replyUsage: lastUsage,
  replyText: (reply) => (Array.isArray(reply) ? reply : [reply]).map(responseText).join(""),
  streamTally: () => new GenerateContentTally(),
  streamFraming: (route) => streamFormOf(route.url).form,
  pathPrefix: (other) => `/${other.trim() || "v1beta"}`,
};
