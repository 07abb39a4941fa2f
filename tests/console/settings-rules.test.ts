import { describe, expect, test } from "bun:test";
import {
  upsertRow,
  mapsFromRows,
  parseMaps,
  rowsFromMaps,
} from "../../src/console/pages/setting/operation/prices/price-rows";
import type { FieldSpec } from "../../src/console/pages/setting/options/field-spec";
import { prepareChanges } from "../../src/console/pages/setting/options/prepare";

const fields: FieldSpec[] = [
  { key: "ServerAddress", kind: "address", label: "Server address" },
  { key: "SMTPToken", kind: "secret", label: "SMTP token" },
  { key: "GroupRatio", kind: "json", label: "Group ratios" },
  { key: "MinTopUp", kind: "number", min: 1, label: "Smallest top-up" },
  { key: "RegisterEnabled", kind: "switch", label: "Register" },
];
const loaded = {
  ServerAddress: "https://a.example",
  SMTPToken: "",
  GroupRatio: '{"default":1}',
  MinTopUp: "1",
  RegisterEnabled: "true",
};

describe("settings forms send only changed keys", () => {
  test("nothing changed: no keys", () => {
    expect(prepareChanges(fields, loaded, { ...loaded })).toEqual({ ok: true, changes: {} });
  });

  test("trailing slashes are stripped from addresses before comparing", () => {
    expect(prepareChanges(fields, loaded, { ...loaded, ServerAddress: "https://a.example//" })).toEqual({
      ok: true,
      changes: {},
    });
    expect(prepareChanges(fields, loaded, { ...loaded, ServerAddress: "https://b.example/" })).toEqual({
      ok: true,
      changes: { ServerAddress: "https://b.example" },
    });
  });

  test("secrets are sent only when typed", () => {
    expect(prepareChanges(fields, loaded, { ...loaded, SMTPToken: "s3cret" })).toEqual({
      ok: true,
      changes: { SMTPToken: "s3cret" },
    });
  });

  test("JSON fields must be valid JSON; numbers must reach their minimum", () => {
    expect(prepareChanges(fields, loaded, { ...loaded, GroupRatio: "{x" })).toEqual({
      ok: false,
      problem: "invalid-json",
      label: "Group ratios",
    });
    expect(prepareChanges(fields, loaded, { ...loaded, MinTopUp: "0" })).toEqual({
      ok: false,
      problem: "invalid-number",
      label: "Smallest top-up",
    });
    expect(prepareChanges(fields, loaded, { ...loaded, MinTopUp: "" })).toEqual({
      ok: false,
      problem: "invalid-number",
      label: "Smallest top-up",
    });
  });
});

describe("the visual price editor", () => {
  const maps = { ModelPrice: { "img-1": 0.04 }, ModelRatio: { "gpt-x": 2.5 }, CompletionRatio: { "gpt-x": 3 } };

  test("rows and maps convert both ways", () => {
    const rows = rowsFromMaps(maps);
    expect(rows).toEqual([
      { name: "gpt-x", price: undefined, ratio: 2.5, completionRatio: 3 },
      { name: "img-1", price: 0.04, ratio: undefined, completionRatio: undefined },
    ]);
    expect(mapsFromRows(rows)).toEqual(maps);
  });

  test("a duplicate name is refused, also when renaming", () => {
    const rows = rowsFromMaps(maps);
    expect(upsertRow(rows, { name: "gpt-x", price: "", ratio: "1", completionRatio: "" })).toBe("duplicate");
    expect(upsertRow(rows, { name: "img-1", price: "1", ratio: "", completionRatio: "" }, "gpt-x")).toBe("duplicate");
  });

  test("numbers only, and a fixed price drops the ratios", () => {
    const rows = rowsFromMaps(maps);
    expect(upsertRow(rows, { name: "m", price: "", ratio: "abc", completionRatio: "" })).toBe("not-a-number");
    expect(upsertRow(rows, { name: "m", price: "-1", ratio: "", completionRatio: "" })).toBe("not-a-number");
    const next = upsertRow(rows, { name: "gpt-x", price: "0.5", ratio: "9", completionRatio: "9" }, "gpt-x");
    expect(next).toContainEqual({ name: "gpt-x", price: 0.5 });
    // The ratio fields are disabled once a price is typed, so what they hold cannot block the row.
    expect(upsertRow(rows, { name: "m", price: "1", ratio: "-1", completionRatio: "" })).toContainEqual({
      name: "m",
      price: 1,
    });
  });

  test("maps that are not objects of numbers are not editable visually", () => {
    expect(parseMaps({ ModelPrice: "{}", ModelRatio: '{"a":"x"}', CompletionRatio: "{}" })).toBeUndefined();
    expect(parseMaps({ ModelPrice: "{}", ModelRatio: "{", CompletionRatio: "{}" })).toBeUndefined();
  });
});
