import { invalidRequest } from "../relay/errors";

/** A music submission: its action (MUSIC, LYRICS) and priced model. */
export interface SunoAction {
  action: string;
  model: string;
}

/** The priced model of each action. */
export const SUNO_MODELS: Record<string, string> = { MUSIC: "suno_music", LYRICS: "suno_lyrics" };

const nonEmpty = (value: unknown) => typeof value === "string" && value.trim() !== "";

/** /suno/submit/<music|lyrics>, checked: music needs a prompt or a description to write one from, lyrics a prompt. */
export function sunoSubmitAction(name: string, body: Record<string, unknown>): SunoAction {
  if (name === "music") {
    if (!nonEmpty(body.prompt) && !nonEmpty(body.gpt_description_prompt)) {
      throw invalidRequest("prompt or gpt_description_prompt is required");
    }
    return { action: "MUSIC", model: SUNO_MODELS.MUSIC! };
  }
  if (name === "lyrics") {
    if (!nonEmpty(body.prompt)) throw invalidRequest("prompt is required");
    return { action: "LYRICS", model: SUNO_MODELS.LYRICS! };
  }
  throw invalidRequest(`unknown action: ${name.slice(0, 80)}`);
}
