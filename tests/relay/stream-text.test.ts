import { describe, expect, test } from "bun:test";
import { StreamedText } from "../../src/gateway/relay/stream-text";

const chunk = (content: string) =>
  JSON.stringify({ id: "c", object: "chat.completion.chunk", choices: [{ index: 0, delta: { content } }] });

describe("the text a stream generated, kept for a count", () => {
  test("a stream far longer than the payload budget keeps all its text, in order", () => {
    const kept = new StreamedText("chat");
    let expected = "";
    for (let i = 0; i < 2000; i++) {
      const piece = `t${i} `;
      kept.keep(chunk(piece));
      expected += piece;
    }
    expect(kept.text).toBe(expected);
  });

  test("reasoning text and unparsable payloads past the budget are counted as before", () => {
    const kept = new StreamedText("chat");
    const reasoning = JSON.stringify({ choices: [{ delta: { reasoning_content: "why " } }] });
    let expected = "";
    for (let i = 0; i < 300; i++) {
      kept.keep(i % 10 === 0 ? "not json" : i % 2 ? reasoning : chunk("a "));
      expected += i % 10 === 0 ? "" : i % 2 ? "why " : "a ";
    }
    expect(kept.text).toBe(expected);
  });

  test("forget drops what was kept (the upstream reported usage)", () => {
    const kept = new StreamedText("chat");
    for (let i = 0; i < 500; i++) kept.keep(chunk("x"));
    kept.forget();
    kept.keep(chunk("y"));
    expect(kept.text).toBe("y");
  });
});
