import { describe, expect, test } from "bun:test";
import { plainEvent, plainTextDelta } from "../../../src/gateway/relay/providers/anthropic/plain-events";

const delta = (text: string, index = "0") =>
  `{"type":"content_block_delta","index":${index},"delta":{"type":"text_delta","text":${text}}}`;

describe("Anthropic events read without JSON.parse", () => {
  test("the plain forms: the very object JSON.parse gives", () => {
    const plain = [
      delta('"Hello"'),
      delta('" world, é 🌍 </script>"', "12"),
      delta('""'),
      '{"type":"content_block_stop","index":0}',
      '{"type":"content_block_stop","index":3}',
      '{"type":"ping"}',
      '{"type":"message_stop"}',
      '{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}',
      '{"type":"content_block_start","index":4,"content_block":{"type":"text","text":""}}',
      '{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":15}}',
      '{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":0}}',
      '{"type":"message_delta","delta":{"stop_reason":null,"stop_sequence":null},"usage":{"output_tokens":7}}',
    ];
    for (const data of plain) expect({ data, event: plainEvent(data) }).toEqual({ data, event: JSON.parse(data) });
    // A text delta's text alone, without the event's objects: the text JSON.parse gives; other events have none.
    for (const data of plain) {
      const parsed = JSON.parse(data);
      const text = parsed.type === "content_block_delta" ? parsed.delta.text : undefined;
      expect({ data, text: plainTextDelta(data) }).toEqual({ data, text });
    }
  });

  test("anything else (escapes, control characters, other fields, blanks, bad numbers, bad JSON) is left to JSON.parse", () => {
    const others = [
      delta('"say \\"hi\\""'),
      delta('"a\\nb"'),
      delta('"\\u00e9"'),
      delta('"tab\there"'),
      delta('"x"', "01"),
      delta('"x"', "-1"),
      delta('"x"', "1.5"),
      delta('"x"', "1e2"),
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x","extra":1}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"x"}}',
      '{"type": "ping"}',
      '{"type":"ping","type":"message_stop"}',
      '{"type":"content_block_stop","index":0,"x":1}',
      '{"type":"content_block_stop","index":00}',
      delta('"unterminated'),
      '{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"Hi"}}',
      '{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}',
      '{"type":"message_delta","delta":{"stop_reason":"stop_sequence","stop_sequence":"END"},"usage":{"output_tokens":3}}',
      '{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"input_tokens":2,"output_tokens":3}}',
      '{"type":"message_delta","delta":{"stop_reason":"end\\u005fturn","stop_sequence":null},"usage":{"output_tokens":3}}',
      '{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":03}}',
      '{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[]}}',
      "",
    ];
    for (const data of others) expect({ data, event: plainEvent(data) }).toEqual({ data, event: undefined });
    for (const data of others) expect({ data, text: plainTextDelta(data) }).toEqual({ data, text: undefined });
    // Ten digits of index, a text cut before its closing quote: left to JSON.parse as well.
    for (const data of [delta('"x"', "1234567890"), `${delta('"x"').slice(0, -3)}}}`, delta('"x"').slice(0, -1)])
      expect({ data, event: plainEvent(data), text: plainTextDelta(data) }).toEqual({
        data,
        event: undefined,
        text: undefined,
      });
  });
});
