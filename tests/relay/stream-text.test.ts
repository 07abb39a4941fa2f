import { describe, expect, test } from "bun:test";
import { plainChatText, StreamedText } from "../../src/gateway/relay/stream-text";

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

describe("the usual chat chunk read without the parser", () => {
  const parsed = (data: string) => {
    const kept = new StreamedText("chat");
    kept.keep("not json"); // payloads pending: the next one goes through the parser
    kept.keep(data);
    return kept.text;
  };
  const payloads = [
    chunk("plain text "),
    chunk('with "quotes" and \\ backslash'),
    chunk("unicode ü 字 😀"),
    chunk(""),
    JSON.stringify({ choices: [{ index: 0, delta: { role: "assistant", content: "role first" } }] }),
    JSON.stringify({ choices: [{ index: 0, delta: { content: "a", reasoning_content: "b" } }] }),
    JSON.stringify({ choices: [{ index: 0, delta: { reasoning_content: "think", content: "say" } }] }),
    JSON.stringify({ choices: [{ delta: { content: "one" } }, { delta: { content: "two" } }] }),
    JSON.stringify({ choices: [{ delta: { content: null } }] }),
    JSON.stringify({ choices: [{ delta: { tool_calls: [{ function: { arguments: '{"content":"x"}' } }] } }] }),
    JSON.stringify({ choices: [{ message: { content: "not a delta" } }] }),
    JSON.stringify({ choices: [{ delta: { refusal: "no", content: "after" } }] }),
    '{"choices":[{"delta":{"content":"cut',
  ];
  for (const data of payloads) {
    test(`gives what the parser gives: ${data.slice(0, 60)}`, () => {
      const kept = new StreamedText("chat");
      kept.keep(data);
      expect(kept.text).toBe(parsed(data));
    });
  }

  test("ordinary chunks are read at once, not kept as payloads", () => {
    expect(plainChatText(chunk("hello "))).toBe("hello ");
    expect(plainChatText(chunk('say "hi"'))).toBeUndefined();
  });
});
