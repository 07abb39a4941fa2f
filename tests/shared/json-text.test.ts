import { describe, expect, test } from "bun:test";
import { jsonText } from "../../src/shared/json-text";

describe("jsonText", () => {
  test("every character alone and inside text, lone and paired surrogates: JSON.stringify's text", () => {
    const strings = ["", "plain words", "é ü ß", "🌍", "a\u2028b\u2029c", "\ud800", "x\udfffy", "\u007f", "</script>"];
    for (let code = 0; code < 0x80; code++) strings.push(String.fromCharCode(code), `ab${String.fromCharCode(code)}cd`);
    for (const s of strings) expect({ s, text: jsonText(s) }).toEqual({ s, text: JSON.stringify(s) });
  });

  test("numbers (negative zero, exponents, non-finite) and other JSON values: JSON.stringify's text", () => {
    const values = [
      0,
      -0,
      7,
      -3.25,
      1e21,
      1e-7,
      2 ** 53 + 2,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      null,
      true,
      [1, "a"],
      { a: "b" },
    ];
    for (const value of values) expect(jsonText(value)).toBe(JSON.stringify(value));
  });
});
