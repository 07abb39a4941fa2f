import { expect, spyOn, test } from "bun:test";
import type { Connection } from "../../src/gateway/upstream/connections";
import { Exchange } from "../../src/gateway/upstream/exchange";

/** A connection that records which request was written on it, and when (by order). */
function recordingSocket(name: string, written: string[]): Connection {
  return {
    data: { user: null },
    write: (request: string) => {
      written.push(name);
      return Buffer.byteLength(request);
    },
  } as unknown as Connection;
}

const turnEnd = () => new Promise((resolve) => setImmediate(resolve));

test("requests made in one turn are written together once it ends", async () => {
  // A batch an earlier test left goes first; then the clock stands still, so a pause of the machine (a collection,
  // another process) between making the request and looking cannot make the batch overdue.
  await turnEnd();
  const frozen = performance.now();
  const clock = spyOn(performance, "now").mockImplementation(() => frozen);
  try {
    const written: string[] = [];
    new Exchange(recordingSocket("a", written), "POST / HTTP/1.1\r\n\r\n");
    expect(written).toEqual([]);
    await turnEnd();
    expect(written).toEqual(["a"]);
  } finally {
    clock.mockRestore();
  }
});

test("a long turn does not hold a request until its end: the next request made finds the batch old and writes it", () => {
  const written: string[] = [];
  new Exchange(recordingSocket("a", written), "POST / HTTP/1.1\r\n\r\n");
  // A turn busy for a few milliseconds (thousands of open streams make such turns) before the next call starts.
  const until = performance.now() + 5;
  while (performance.now() < until) {}
  new Exchange(recordingSocket("b", written), "POST / HTTP/1.1\r\n\r\n");
  expect(written).toEqual(["a", "b"]);
});
