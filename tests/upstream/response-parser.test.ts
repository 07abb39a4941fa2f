import { describe, expect, test } from "bun:test";
import { BadReplyError, ResponseParser } from "../../src/gateway/upstream/response-parser";

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (chunks: Uint8Array[]) => Buffer.concat(chunks).toString();

/** Feeds `wire` to a parser `step` bytes at a time; answers the heads seen, the body and whether it completed. */
function feed(wire: string, step: number, parser = new ResponseParser()) {
  const all = bytes(wire);
  const heads = [];
  const body: Uint8Array[] = [];
  let done = false;
  for (let at = 0; at < all.length; at += step) {
    const out = parser.push(all.slice(at, at + step));
    if (out.head) heads.push(out.head);
    for (let i = 0; i < out.parts.length; i += 2)
      body.push(Buffer.from(out.source.subarray(out.parts[i], out.parts[i + 1])));
    done ||= out.done;
  }
  return { parser, heads, body: text(body), done };
}

describe("reading an HTTP/1.1 reply as its bytes arrive", () => {
  const lengthReply =
    'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\nX-Twice: a\r\nx-twice: b\r\n\r\n{"ok":true}';

  for (const step of [1, 7, 1000]) {
    test(`a content-length body, ${step} byte(s) at a time: one head, the exact body, complete at its last byte`, () => {
      const { heads, body, done } = feed(lengthReply, step);
      expect(heads).toHaveLength(1);
      expect(heads[0]!.status).toBe(200);
      expect(heads[0]!.header("content-type")).toBe("application/json");
      expect(heads[0]!.header("x-twice")).toBe("a, b");
      expect(heads[0]!.header("absent")).toBeNull();
      expect(heads[0]!.keepAlive).toBe(true);
      expect(body).toBe('{"ok":true}');
      expect(done).toBe(true);
    });
  }

  test("a head compacted for a stream still answers every header, in its own case", () => {
    const [head] = feed(lengthReply, 1000).heads;
    head!.compact();
    expect(head!.header("content-type")).toBe("application/json");
    expect(head!.header("x-twice")).toBe("a, b");
    expect(head!.header("http/1.1 200 ok")).toBeNull();
  });

  const chunkedReply =
    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: text/event-stream\r\n\r\n" +
    "6\r\ndata: \r\n" +
    "1a;ext=1\r\n" +
    "abcdefghijklmnopqrstuvwxyz\r\n" +
    "2\r\n\n\n\r\n" +
    "0\r\nX-Trailer: t\r\n\r\n";

  for (const step of [1, 5, 1000]) {
    test(`a chunked body, ${step} byte(s) at a time: the chunks' data without the framing, complete after the trailers`, () => {
      const { heads, body, done } = feed(chunkedReply, step);
      expect(heads[0]!.header("content-type")).toBe("text/event-stream");
      expect(body).toBe("data: abcdefghijklmnopqrstuvwxyz\n\n");
      expect(done).toBe(true);
    });
  }

  test("chunk sizes in either case, with spaces or an extension after them, LF or CRLF line ends", () => {
    const wire =
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" +
      "A \r\n0123456789\r\n" +
      '0000000000b\t;name="v"\n0123456789a\n' +
      "0\r\n\r\n";
    for (const step of [1, 1000]) {
      const { body, done } = feed(wire, step);
      expect(body).toBe("01234567890123456789a");
      expect(done).toBe(true);
    }
  });

  test("interim 1xx heads are skipped: the head is the final reply's", () => {
    const { heads, body } = feed("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nhi", 3);
    expect(heads.map((h) => h.status)).toEqual([201]);
    expect(body).toBe("hi");
  });

  test("a body without length or chunking ends with the connection; a length-framed one cut short does not", () => {
    const closing = feed("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\npartial and more", 4);
    expect(closing.done).toBe(false);
    expect(closing.heads[0]!.keepAlive).toBe(false);
    expect(closing.body).toBe("partial and more");
    expect(closing.parser.end()).toBe(true);
    const cut = feed("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", 100);
    expect(cut.parser.end()).toBe(false);
  });

  test("204, an empty length and HTTP/1.0 without keep-alive", () => {
    expect(feed("HTTP/1.1 204 No Content\r\n\r\n", 100).done).toBe(true);
    expect(feed("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", 100).done).toBe(true);
    expect(feed("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n", 100).heads[0]!.keepAlive).toBe(false);
    expect(
      feed("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n", 100).heads[0]!.keepAlive,
    ).toBe(true);
  });

  test("what is not a well-framed HTTP/1.x reply is refused", () => {
    const refused = (wire: string) => expect(() => feed(wire, 1000)).toThrow(BadReplyError);
    refused("SSH-2.0-OpenSSH\r\n\r\n");
    refused("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n");
    refused("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nabc");
    refused("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n");
    refused("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabX\r\n");
    refused("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\r\n");
    refused("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2x\r\nab\r\n");
    refused("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0000000000001\r\na\r\n");
    refused(`HTTP/1.1 200 OK\r\nX-Big: ${"x".repeat(70 * 1024)}`);
  });
});
