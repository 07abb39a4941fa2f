import { expect, test } from "bun:test";
import { lacksResponses } from "../../../src/gateway/relay/dialects/responses/lacks-responses";

test("an upstream lacks /v1/responses when it answers 404, 405 or 501; any other answer is the endpoint's own", () => {
  for (const status of [404, 405, 501]) expect(lacksResponses(status)).toBe(true);
  for (const status of [200, 400, 401, 403, 413, 422, 429, 500, 502, 503]) expect(lacksResponses(status)).toBe(false);
});
