import { describe, expect, test } from "bun:test";
import { parseRelayKey } from "../../src/service/relay/caller";

describe("the relay key in the Authorization header", () => {
  test("the usual and the unusual forms give the key and the optional channel pin", () => {
    const forms: [string | null, ReturnType<typeof parseRelayKey>][] = [
      ["Bearer sk-abc", { key: "abc", pin: undefined }],
      ["Bearer sk-abc-12", { key: "abc", pin: "12" }],
      ["Bearer sk-abc-1-2", { key: "abc", pin: "1" }],
      ["bearer sk-abc", { key: "abc", pin: undefined }],
      ["Bearer   sk-abc  ", { key: "abc", pin: undefined }],
      ["Bearer abc-3", { key: "abc", pin: "3" }],
      ["sk-abc", { key: "abc", pin: undefined }],
    ];
    for (const [header, parsed] of forms) expect({ header, parsed: parseRelayKey(header) }).toEqual({ header, parsed });
  });

  test("no key at all is none", () => {
    for (const header of [null, "", "Bearer ", "Bearer sk-", "Bearer sk-  ", "Bearer -5"])
      expect({ header, parsed: parseRelayKey(header) }).toEqual({ header, parsed: undefined });
  });
});
