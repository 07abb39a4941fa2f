import { t } from "@lingui/core/macro";
import { Box, Text, useInput } from "ink";
import { useReducer, useRef } from "react";
import type { Prompt } from "./context";

/**
 * The open prompt on the status line: typed text with Enter and Esc, or a y/n question. Text may come in
 * one read with its Enter (typed ahead, pasted): each character counts, and a return ends the text.
 */
export function InputLine({ prompt, onDone }: { prompt: Prompt; onDone: () => void }) {
  const value = useRef(prompt.kind === "input" ? (prompt.initial ?? "") : "");
  const selected = useRef(prompt.kind === "input" && !!prompt.selected && !!prompt.initial);
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  useInput((input, key) => {
    if (key.escape) return onDone();
    if (prompt.kind === "confirm") {
      if (input === "y" || input === "Y") {
        onDone();
        prompt.onYes();
      } else if (input === "n" || input === "N") onDone();
      return;
    }
    const replacing = selected.current && !key.return;
    selected.current = false;
    if (replacing && !key.ctrl && !key.meta && !input.startsWith("\u001B")) value.current = "";
    if (key.backspace || key.delete) value.current = [...value.current].slice(0, -1).join("");
    else if (key.return) return submit(prompt.onSubmit);
    else if (!key.ctrl && !key.meta && !input.startsWith("\u001B")) {
      for (const char of input) {
        if (char === "\r" || char === "\n") return submit(prompt.onSubmit);
        if (char >= " ") value.current += char;
      }
    }
    rerender();
  });
  const submit = (onSubmit: (text: string) => void) => {
    onDone();
    onSubmit(value.current);
  };
  if (prompt.kind === "confirm") {
    return (
      <Text wrap="truncate-end">
        <Text color="yellow">{prompt.question}</Text> <Text bold>{t`(y/n)`}</Text>
      </Text>
    );
  }
  const hint = prompt.hint?.(value.current);
  return (
    <Box>
      <Text wrap="truncate-end">
        <Text bold>{prompt.label}</Text> <Text inverse={selected.current}>{value.current}</Text>
        <Text inverse> </Text>
        {hint ? <Text dimColor>{`  ${hint}`}</Text> : null}
      </Text>
    </Box>
  );
}
