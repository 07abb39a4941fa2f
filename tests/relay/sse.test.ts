import { describe, expect, test } from "bun:test";
import { eventData, SseSplitter } from "../../src/gateway/relay/sse";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("server-sent events from an upstream", () => {
  test("whole events come out as soon as their blank line arrives; a partial one waits for the next chunk", () => {
    const splitter = new SseSplitter();
    expect(splitter.push(bytes('data: {"a":1}\n\ndata: {"b"'))).toEqual(['data: {"a":1}']);
    expect(splitter.push(bytes(":2}\n\ndata: [DONE]\n\n"))).toEqual(['data: {"b":2}', "data: [DONE]"]);
    expect(splitter.rest()).toEqual([]);
  });

  test("CRLF line ends and a character split between chunks are read as one text", () => {
    const splitter = new SseSplitter();
    const euro = bytes("data: €\r\n\r\n");
    expect(splitter.push(euro.slice(0, 7))).toEqual([]);
    expect(splitter.push(euro.slice(7))).toEqual(["data: €"]);
  });

  test("a chunk can go out as it came only when its bytes are exactly its events' text", () => {
    const splitter = new SseSplitter();
    const pushed = (chunk: Uint8Array) => [splitter.push(chunk), splitter.asIs, splitter.takeWhole()];
    splitter.push(bytes("data: first\n\n")); // the stream's first bytes may lose a byte order mark
    expect(pushed(bytes("data: a\n\n"))).toEqual([["data: a"], true, "data: a\n\n"]);
    expect(pushed(bytes("data: ü \uFFFD\n\n"))).toEqual([["data: ü \uFFFD"], true, "data: ü \uFFFD\n\n"]);
    // An invalid byte is read as a replacement character, which is not what came.
    expect(pushed(Uint8Array.of(...bytes("data: "), 0xff, 10, 10))).toEqual([
      ["data: \uFFFD"],
      false,
      "data: \uFFFD\n\n",
    ]);
    // The first bytes of a character after the events wait for the rest of it.
    expect(pushed(Uint8Array.of(...bytes("data: b\n\n"), 0xe2, 0x82))).toEqual([["data: b"], false, "data: b\n\n"]);
    expect(pushed(Uint8Array.of(0xac, ...bytes("\n\n")))).toEqual([["€"], false, "€\n\n"]);
  });

  test("text already decoded (a mapped stream's) is split as its bytes would be, and never goes out as bytes", () => {
    const splitter = new SseSplitter();
    const pushed = (text: string) => [splitter.pushText(text), splitter.asIs, splitter.takeWhole()];
    expect(pushed("data: a\n\ndata: é\n\n")).toEqual([["data: a", "data: é"], false, "data: a\n\ndata: é\n\n"]);
    expect(pushed("data: b\r")).toEqual([[], false, undefined]);
    expect(pushed("\n\r\ndata: c\r\n\r\ndata: [DO")).toEqual([["data: b", "data: c"], false, undefined]);
    expect(splitter.push(bytes("NE]\n\n"))).toEqual(["data: [DONE]"]);
  });

  test("a byte order mark opening the stream is dropped; one later on is text", () => {
    const splitter = new SseSplitter();
    expect(splitter.push(bytes("\uFEFFdata: a\n\n"))).toEqual(["data: a"]);
    expect(splitter.push(bytes("\uFEFFdata: b\n\n"))).toEqual(["\uFEFFdata: b"]);
    // Later still, in a chunk that ends in a cut character (read with the stream's decoder, made only then).
    const euro = bytes("\uFEFFdata: €\n\n");
    expect(splitter.push(euro.subarray(0, 11))).toEqual([]);
    expect(splitter.push(euro.subarray(11))).toEqual(["\uFEFFdata: €"]);
    // A mark cut by the first chunk's end is still the stream's opening mark.
    const cut = new SseSplitter();
    const marked = bytes("\uFEFFdata: a\n\n");
    expect(cut.push(marked.subarray(0, 1))).toEqual([]);
    expect(cut.push(marked.subarray(1))).toEqual(["data: a"]);
    // An opening chunk of whole characters is its own text, and may go out as it came.
    const plain = new SseSplitter();
    expect(plain.push(bytes("data: é\n\n"))).toEqual(["data: é"]);
    expect(plain.asIs).toBe(true);
  });

  test("what is left without a final blank line is handed over at the end", () => {
    const splitter = new SseSplitter();
    expect(splitter.push(bytes("data: one\n\ndata: tail"))).toEqual(["data: one"]);
    expect(splitter.rest()).toEqual(["data: tail"]);
  });

  test("an event's data joins its data lines; comments and empty events have none", () => {
    expect(eventData("event: x\ndata: a\ndata:b")).toBe("a\nb");
    expect(eventData(": PING")).toBeUndefined();
    expect(eventData("")).toBeUndefined();
  });
});

describe("one-line events", () => {
  test("the data of a single data line, with or without the space after the colon", () => {
    expect(eventData('data: {"x":1}')).toBe('{"x":1}');
    expect(eventData('data:{"x":1}')).toBe('{"x":1}');
    expect(eventData("data: ")).toBe("");
  });
});
