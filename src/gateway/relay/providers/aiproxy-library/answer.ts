import { RelayError } from "../../../../shared/relay-error";
import { chatCompletion } from "../openai-shape";

/** The documents an answer came from, as Markdown links after it (the answer's sources stay with it). */
export function sourcesOf(documents: unknown): string {
  const links = (Array.isArray(documents) ? documents : [])
    .filter((d: any) => typeof d?.title === "string" || typeof d?.url === "string")
    .map((d: any) => `- [${d.title ?? d.url}](${d.url ?? ""})`);
  return links.length ? `\n\nSources:\n${links.join("\n")}` : "";
}

/**
 * An /api/library/ask reply {success, message, answer, documents} as a chat.completion. The library reports no
 * usage: the relay counts the prompt and the answer. A refusal comes as success false.
 */
export function mapLibraryAnswer(reply: any, model: string) {
  if (reply?.success === false)
    throw new RelayError(
      502,
      `the knowledge base refused the call: ${String(reply.message ?? "no reason given")}`,
      "upstream_error",
      "upstream_error",
    );
  return chatCompletion({
    id: `chatcmpl-${crypto.randomUUID()}`,
    model,
    choices: [{ content: String(reply?.answer ?? "") + sourcesOf(reply?.documents), reasoning: "", finish: "stop" }],
  });
}
