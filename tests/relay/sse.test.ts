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
