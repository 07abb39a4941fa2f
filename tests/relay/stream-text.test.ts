import { describe, expect, test } from "bun:test";
import { heapStats } from "bun:jsc";
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

  test("the text kept does not hold on to the events it was cut from", () => {
    // Events of ~8 KiB with a few characters of text each: a piece still cut from its event would hold all of it.
    const padding = "p".repeat(8 * 1024);
    const event = (i: number) =>
      `{"id":"${padding}${i}","choices":[{"index":0,"delta":{"content":"t${i} "},"finish_reason":null}]}`;
    // Warmed first: the optimizing compiler must not change what is kept.
    const warm = new StreamedText("chat");
    for (let i = 0; i < 200_000; i++) warm.keep(event(i % 100));
    // What the streams hold is what letting them go frees: the heap's growth over the loop, in a long test run, also
    // counted whatever else the heap grew by. The least of three readings over 1 000 streams: in the whole suite
    // what earlier tests left is let go beside them (two fresh-clone runs read 4.1–4.2 KiB a stream over 200).
    const perStream = (): number => {
      const streams: StreamedText[] = [];
      for (let s = 0; s < 1000; s++) {
        const kept = new StreamedText("chat");
        for (let i = 0; i < 7; i++) kept.keep(event(s * 10 + i));
        streams.push(kept);
      }
      expect(streams[199]!.text).toBe("t1990 t1991 t1992 t1993 t1994 t1995 t1996 ");
      expect(streams[999]!.text).toBe("t9990 t9991 t9992 t9993 t9994 t9995 t9996 ");
      const count = streams.length;
      Bun.gc(true);
      const held = heapStats();
      streams.length = 0;
      Bun.gc(true);
      const released = heapStats();
      return (held.heapSize + held.extraMemorySize - released.heapSize - released.extraMemorySize) / count;
    };
    // 7 events are ~56 KiB; their text and the object keeping it read under 2 KiB alone (a piece that still held
    // its event read ~115 KiB a stream): the bound, under one event's 8 KiB, leaves room for what else is let go.
    expect(Math.min(perStream(), perStream(), perStream())).toBeLessThan(8 * 1024);
    // Read last, so the warm-up's text stays alive through both readings rather than being freed between them.
    expect(warm.text.length).toBeGreaterThan(0);
  });

  test("a long stream's text is kept in a couple of objects, whatever its length (what a full collection marks)", () => {
    const keepStreams = (count: number) => {
      const streams: StreamedText[] = [];
      for (let s = 0; s < count; s++) {
        const kept = new StreamedText("chat");
        for (let i = 0; i < 100; i++) kept.keep(chunk(`token ${s}-${i} `));
        streams.push(kept);
      }
      return streams;
    };
    keepStreams(50); // warmed first: the compiler's own objects are not the streams'
    Bun.gc(true);
    const before = heapStats().objectCount;
    const streams = keepStreams(200);
    Bun.gc(true);
    const perStream = (heapStats().objectCount - before) / streams.length;
    // The object and its buffer (a string per 128-character run of text read ~13 a stream).
    expect(perStream).toBeLessThan(3);
    expect(streams[7]!.text.endsWith("token 7-98 token 7-99 ")).toBe(true);
  });

  test("text in any script is kept whole as its buffer grows", () => {
    const kept = new StreamedText("chat");
    let expected = "";
    for (let i = 0; i < 400; i++) {
      const piece = ["ü", "字", "😀", "a", "Ω "][i % 5]!.repeat(1 + (i % 7));
      kept.keep(chunk(piece));
      expected += piece;
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
    JSON.stringify({ choices: [{ delta: { role: "tool", content: "another role" } }] }),
    JSON.stringify({ choices: [{ delta: { reasoning_content: "first" } }, { delta: { content: "second choice" } }] }),
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
