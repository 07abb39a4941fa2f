import { describe, expect, test } from "bun:test";
import { claimantOf, PROVIDERS, providerFor, SERVED_TYPES } from "../../src/gateway/relay/providers/registry";
import { unservedProvider } from "../../src/gateway/relay/providers/unserved";
import { CHANNEL_TYPES, otherStartOf } from "../../src/shared/channel-types";

const shared = [...CHANNEL_TYPES.values()];
const claimed = PROVIDERS.flatMap((p) => p.types.map((type) => ({ type, provider: p })));
const listsFor = (type: number) => {
  const models = providerFor(type).models;
  return Boolean(models && (!models.types || models.types.has(type)));
};
const reportsFor = (type: number) => {
  const balance = providerFor(type).balance;
  return Boolean(balance && (!balance.types || balance.types.has(type)));
};

describe("the providers' registry agrees with the shared channel-type table", () => {
  test("every type a family claims is a known channel type, claimed by one family only", () => {
    for (const { type } of claimed) expect(CHANNEL_TYPES.has(type)).toBe(true);
    expect(new Set(claimed.map((c) => c.type)).size).toBe(claimed.length);
  });

  test("no silent fallback: a type no family claims has no claimant, and its stand-in serves nothing and refuses", () => {
    for (const { id } of shared) {
      const owner = claimed.find((c) => c.type === id)?.provider;
      expect(claimantOf(id)).toBe(owner);
      expect(providerFor(id)).toBe(owner ?? unservedProvider);
    }
    expect(claimantOf(0)).toBeUndefined();
    expect(claimantOf(10_000)).toBeUndefined();
    expect(unservedProvider.endpoints!.size).toBe(0);
    const channel = { type: 56, key: "k", base_url: "", other: "" };
    const call = { path: "/v1/chat/completions", model: "m", body: "{}", contentType: null, stream: false };
    expect(() => unservedProvider.request(channel, call)).toThrow("channel type Replicate (56) has no provider");
  });

  test("the types offered (the served list) are exactly the types some family claims, each a known type", () => {
    expect(SERVED_TYPES).toEqual([...new Set(claimed.map((c) => c.type))].sort((a, b) => a - b));
    for (const type of SERVED_TYPES) expect(CHANNEL_TYPES.has(type)).toBe(true);
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

  test("every served type lists models and reports a balance exactly when the shared table says so", () => {
    for (const type of SERVED_TYPES) {
      const facts = CHANNEL_TYPES.get(type)!;
      expect({ type, lists: listsFor(type) }).toEqual({ type, lists: Boolean(facts.listsModels) });
      expect({ type, reports: reportsFor(type) }).toEqual({ type, reports: Boolean(facts.reportsBalance) });
    }
  });

  test("every family that maps an event stream names its mapper, so a pushed reply is mapped as it arrives", () => {
    const mapsEvents = PROVIDERS.filter((p) => p.mapStream && !p.streamContentType);
    expect(mapsEvents.length).toBeGreaterThanOrEqual(7);
    for (const p of mapsEvents)
      expect({ types: p.types, named: typeof p.streamMapper }).toEqual({ types: p.types, named: "function" });
  });
});
