import { describe, expect, test } from "bun:test";
import { JsonArraySplitter } from "../../src/gateway/relay/json-array-splitter";

/** Gemini's streamed JSON array, with the CRLF separators and the tricky characters inside strings. */
const ELEMENTS = [
  { candidates: [{ content: { parts: [{ text: 'a "quoted" [bracket], {brace}' }] } }] },
  { candidates: [{ content: { parts: [{ text: 'back\\slash \\" é 😀' }] } }], usageMetadata: { promptTokenCount: 3 } },
  { candidates: [], usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2 } },
];
const ARRAY = `[${ELEMENTS.map((e) => JSON.stringify(e)).join(",\r\n")}]`;
const bytes = new TextEncoder().encode(ARRAY);

const split = (cuts: number[]) => {
  const splitter = new JsonArraySplitter();
  const out: string[] = [];
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    out.push(...splitter.push(bytes.slice(from, cut)));
    from = cut;
  }
  return [...out, ...splitter.rest()].map((text) => JSON.parse(text));
};

describe("JsonArraySplitter", () => {
  test("gives each element once, whole, wherever the stream is cut (every byte offset, and every pair)", () => {
    expect(split([])).toEqual(ELEMENTS);
    for (let at = 0; at <= bytes.length; at++) expect(split([at])).toEqual(ELEMENTS);
    for (let a = 0; a <= bytes.length; a += 7) {
      for (let b = a; b <= bytes.length; b += 5) expect(split([a, b])).toEqual(ELEMENTS);
    }
  });

  test("an element still open when the stream ends is not given", () => {
    const splitter = new JsonArraySplitter();
    const cut = bytes.slice(0, ARRAY.lastIndexOf("{") + 5);
    expect(splitter.push(cut).map((t) => JSON.parse(t))).toEqual(ELEMENTS.slice(0, 2));
    expect(splitter.rest()).toEqual([]);
  });

  test("an empty array gives nothing", () => {
    expect(new JsonArraySplitter().push(new TextEncoder().encode("[]"))).toEqual([]);
  });
});
