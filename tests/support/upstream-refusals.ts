import { expect } from "bun:test";
import { expectFailure, type Reply } from "./client";

/** A management call refused in the API's envelope (HTTP 200, success false) with `message`. */
export const refused = (reply: Reply, message: string) => expectFailure(reply, 200, message);

/** An upstream failure is told without the upstream's address or the key. */
export function expectNoSecrets(reply: Reply, fake: { url: string }, key: string): void {
  const text = JSON.stringify(reply.body);
  expect(text).not.toContain(key);
  expect(text).not.toContain(fake.url);
  expect(text).not.toContain("127.0.0.1");
}
