import { describe, expect, test } from "bun:test";
import { PROVIDERS, providerFor } from "../../src/gateway/relay/providers/registry";
import { CHANNEL_TYPES, otherStartOf } from "../../src/shared/channel-types";

const shared = [...CHANNEL_TYPES.values()];
const claimed = PROVIDERS.flatMap((p) => (p.types === "rest" ? [] : p.types.map((type) => ({ type, provider: p }))));

describe("the providers' registry agrees with the shared channel-type table", () => {
  test("every type a family claims is a known channel type, claimed by one family only", () => {
    for (const { type } of claimed) expect(CHANNEL_TYPES.has(type)).toBe(true);
    expect(new Set(claimed.map((c) => c.type)).size).toBe(claimed.length);
  });

  test("one family serves the types no other family claims", () => {
    const rest = PROVIDERS.filter((p) => p.types === "rest");
    expect(rest.length).toBe(1);
    for (const { id } of shared) {
      const owner = claimed.find((c) => c.type === id)?.provider ?? rest[0];
      expect(providerFor(id)).toBe(owner!);
    }
    expect(providerFor(0)).toBe(rest[0]!);
    expect(providerFor(10_000)).toBe(rest[0]!);
  });

  test("what a blank `other` stands for is the same to the family and in the shared table (the console's default)", () => {
    const withDefault = claimed.filter((c) => c.provider.otherDefault !== undefined);
    expect(withDefault.map((c) => c.type).sort((a, b) => a - b)).toEqual([3, 24, 41]);
    for (const { type, provider } of withDefault)
      expect(CHANNEL_TYPES.get(type)!.other?.default).toBe(provider.otherDefault!);
  });

  test("a new Azure channel in the console starts with the API version the relay sends for a blank `other`", () => {
    expect(otherStartOf(3)).toBe(providerFor(3).otherDefault!);
    expect(otherStartOf(3)).toBe("2025-04-01-preview");
    // Gemini's form does not ask for its version: a new channel keeps `other` blank, as before.
    expect(otherStartOf(24)).toBe("");
    expect(otherStartOf(41)).toBe("us-central1");
  });

  test("every type the shared table says lists models or reports a balance has a family that does it", () => {
    for (const type of shared) {
      if (type.listsModels)
        expect({ type: type.name, lists: Boolean(providerFor(type.id).models) }).toEqual({
          type: type.name,
          lists: true,
        });
      if (type.reportsBalance)
        expect({ type: type.name, reports: Boolean(providerFor(type.id).balance) }).toEqual({
          type: type.name,
          reports: true,
        });
    }
  });

  test("a family that claims its types by number lists models for each of them exactly when the shared table says so", () => {
    for (const { type, provider } of claimed) {
      expect({ type, lists: Boolean(provider.models) }).toEqual({
        type,
        lists: Boolean(CHANNEL_TYPES.get(type)!.listsModels),
      });
      expect({ type, reports: Boolean(provider.balance) }).toEqual({
        type,
        reports: Boolean(CHANNEL_TYPES.get(type)!.reportsBalance),
      });
    }
  });
});
