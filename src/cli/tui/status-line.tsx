import { Text } from "ink";
import type { Prompt, Tone } from "./context";
import { InputLine } from "./input-line";

const COLORS: Record<Tone, string> = { ok: "green", error: "red", busy: "cyan" };

/** The line above the help bar: the open prompt, else the outcome of the last action. */
export function StatusLine({
  prompt,
  onPromptDone,
  message,
}: {
  prompt?: Prompt;
  onPromptDone: () => void;
  message?: { text: string; tone: Tone };
}) {
  if (prompt) return <InputLine prompt={prompt} onDone={onPromptDone} />;
  return (
    <Text wrap="truncate-end" color={message ? COLORS[message.tone] : undefined}>
      {message?.text ?? " "}
    </Text>
  );
}
