/**
 * OpenAI's BPE encodings (gpt-tokenizer), each loaded on first use: a load takes a few hundred ms, and o200k_base
 * alone holds ~20 MB of live heap (~211 000 cells) that every full collection of its thread marks.
 */
import type * as Encoding from "gpt-tokenizer/encoding/o200k_base";

export type EncodingName = "o200k_base" | "cl100k_base";

const encodings = new Map<EncodingName, typeof Encoding>();

export function encodingNamed(name: EncodingName): typeof Encoding {
  let loaded = encodings.get(name);
  if (!loaded) {
    // Literal specifiers, so `bun build --compile` still bundles them.
    loaded =
      name === "cl100k_base"
        ? require("gpt-tokenizer/encoding/cl100k_base")
        : require("gpt-tokenizer/encoding/o200k_base");
    encodings.set(name, loaded!);
  }
  return loaded!;
}

/** The encodings this thread has loaded. */
export const loadedEncodings = (): EncodingName[] => [...encodings.keys()];
