import { expect, test } from "bun:test";
import { anthropicToChat } from "../../../src/gateway/relay/dialects/anthropic/to-chat";
import { DialectRefusal } from "../../../src/shared/relay-error";

const route = { url: new URL("http://gateway/v1/messages") };
const SCHEMA = { type: "object", properties: { answer: { type: "number" } }, required: ["answer"] };
const pivotOf = (extra: Record<string, unknown>) =>
  anthropicToChat({ model: "m", max_tokens: 10, messages: [{ role: "user", content: "hi" }], ...extra }, route);
const asResponseFormat = { type: "json_schema", json_schema: { name: "output", schema: SCHEMA } };

test("output_config.format (structured output) becomes the pivot's response_format, not dropped", () => {
  expect(pivotOf({ output_config: { format: { type: "json_schema", schema: SCHEMA } } }).response_format).toEqual(
    asResponseFormat,
  );
});

test("the structured-outputs beta's output_format becomes response_format too", () => {
  expect(pivotOf({ output_format: { type: "json_schema", schema: SCHEMA } }).response_format).toEqual(asResponseFormat);
});

test("without a format there is no response_format; effort, a hint, is not carried", () => {
  expect(pivotOf({}).response_format).toBeUndefined();
  expect(pivotOf({ output_config: { effort: "high" } })).not.toHaveProperty("reasoning_effort");
});

test("a format the pivot cannot carry is refused naming the parameter", () => {
  expect(() => pivotOf({ output_config: { format: { type: "grammar" } } })).toThrow(DialectRefusal);
  expect(() => pivotOf({ output_config: { format: { type: "grammar" } } })).toThrow(/output_config\.format/);
  expect(() => pivotOf({ output_format: { type: "json_schema" } })).toThrow(/output_format/);
});
