import { describe, expect, test } from "bun:test";
import { SingleFlight } from "../../src/service/single-flight";

/** A read that answers `value` when released, counting how often it was started. */
function gatedRead<V>(value: V) {
  let release = () => {};
  const started = { count: 0 };
  const read = () => {
    started.count++;
    return new Promise<V>((resolve) => {
      release = () => resolve(value);
    });
  };
  return { read, started, release: () => release() };
}

describe("SingleFlight: callers that miss together wait for one read", () => {
  test("concurrent callers of one key share one read and its answer", async () => {
    const flight = new SingleFlight<string, number>();
    const gate = gatedRead(7);
    const answers = Promise.all([1, 2, 3].map(() => flight.run("k", gate.read)));
    gate.release();
    expect(await answers).toEqual([7, 7, 7]);
    expect(gate.started.count).toBe(1);
  });

  test("a caller after the read ended starts a new one; other keys never share", async () => {
    const flight = new SingleFlight<string, number>();
    expect(await flight.run("k", async () => 1)).toBe(1);
    expect(await flight.run("k", async () => 2)).toBe(2);
    const a = flight.run("a", async () => 3);
    const b = flight.run("b", async () => 4);
    expect(await Promise.all([a, b])).toEqual([3, 4]);
  });

  test("after forget (a change), callers start a fresh read instead of joining the one begun before", async () => {
    const flight = new SingleFlight<string, string>();
    const before = gatedRead("old");
    const first = flight.run("k", before.read);
    flight.forget("k");
    const after = gatedRead("new");
    const second = flight.run("k", after.read);
    before.release();
    after.release();
    expect(await first).toBe("old");
    expect(await second).toBe("new");
    expect(await flight.run("k", async () => "later")).toBe("later");
  });

  test("a failed read fails its callers and is not kept", async () => {
    const flight = new SingleFlight<string, number>();
    await expect(flight.run("k", () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    expect(await flight.run("k", async () => 5)).toBe(5);
  });
});
