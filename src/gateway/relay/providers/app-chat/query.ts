import { invalidRequest } from "../../../../shared/relay-error";
import { chatTurns } from "../chat-messages";
import { refuseSeveralChoices, refuseUntranslatable } from "../untranslatable";

export interface AppTurn {
  role: "user" | "assistant";
  text: string;
}

/** What an app API (Dify, Coze) takes of an OpenAI chat request: the last user message, and what came before. */
export interface AppConversation {
  query: string;
  /** The system text, "" when none. */
  system: string;
  /** Earlier turns, oldest first. */
  history: AppTurn[];
}

const textOnly = (family: string) =>
  invalidRequest(
    `${family} channels take text messages only (no images, tools or tool answers)`,
    "unsupported_parameter",
  );

/**
 * Apps answer a text conversation; what they cannot carry is refused rather than dropped: tools (the app has its
 * own), several choices, media. The conversation must end with a user message: it is the app's query.
 */
export function appConversation(body: Record<string, any>, family: string): AppConversation {
  refuseUntranslatable(body, family);
  refuseSeveralChoices(body, family);
  if (Array.isArray(body.tools) && body.tools.length)
    throw invalidRequest(
      `tools are not supported on ${family} channels (the app has its own)`,
      "unsupported_parameter",
    );
  const { system, turns } = chatTurns(body, family);
  const history = turns.map((t): AppTurn => {
    const text = t.parts.map((p) => {
      if (!("text" in p)) throw textOnly(family);
      return p.text;
    });
    return { role: t.role, text: text.join("\n") };
  });
  const last = history.pop();
  if (last?.role !== "user" || !last.text)
    throw invalidRequest(`the last message must be a user message with text on ${family} channels`);
  return { query: last.text, system, history };
}

/** The conversation before the query, as text for an app that takes no history: the system text, then the turns. */
export function transcriptOf(c: AppConversation): string {
  const lines = c.history.map((t) => `${t.role}: ${t.text}`);
  return [c.system, ...lines].filter(Boolean).join("\n\n");
}
