import { describe, expect, test } from "bun:test";
import { TokenCache } from "../../../src/gateway/relay/token-cache";

/** A mint the test releases by hand, counting how often it was asked. */
function manualMint(lifetime = 3600) {
  const mint = { calls: 0, release: () => {}, fail: (_: Error) => {} };
  const start = () => {
    mint.calls++;
    return new Promise<{ token: string; expiresIn: number }>((resolve, reject) => {
      mint.release = () => resolve({ token: `token-${mint.calls}`, expiresIn: lifetime });
      mint.fail = reject;
    });
  };
  return { mint, start };
}

describe("upstream tokens are minted once per account and kept until shortly before they expire", () => {
  test("many concurrent calls for one account wait for one mint and all get its token", async () => {
    const cache = new TokenCache();
    const { mint, start } = manualMint();
    const calls = Array.from({ length: 20 }, () => cache.get("account-a", start));
    mint.release();
    expect(await Promise.all(calls)).toEqual(Array(20).fill("token-1"));
    expect(mint.calls).toBe(1);
    expect(await cache.get("account-a", start)).toBe("token-1");
    expect(mint.calls).toBe(1);
  });

  test("each account has its own token", async () => {
    const cache = new TokenCache();
    let n = 0;
    const start = async () => ({ token: `token-${++n}`, expiresIn: 3600 });
    expect(await cache.get("a", start)).toBe("token-1");
    expect(await cache.get("b", start)).toBe("token-2");
    expect(await cache.get("a", start)).toBe("token-1");
  });

  test("a token is re-minted a minute before it expires, not earlier", async () => {
    let now = 1_000_000;
    const cache = new TokenCache(() => now);
    let n = 0;
    const start = async () => ({ token: `token-${++n}`, expiresIn: 3600 });
    expect(await cache.get("a", start)).toBe("token-1");
    now += 3600_000 - 60_000 - 1;
    expect(await cache.get("a", start)).toBe("token-1");
    now += 1;
    expect(await cache.get("a", start)).toBe("token-2");
    expect(n).toBe(2);
  });

  test("a short-lived token is renewed after half its lifetime", async () => {
    let now = 0;
    const cache = new TokenCache(() => now);
    let n = 0;
    const start = async () => ({ token: `token-${++n}`, expiresIn: 60 });
    await cache.get("a", start);
    now = 29_999;
    expect(await cache.get("a", start)).toBe("token-1");
    now = 30_000;
    expect(await cache.get("a", start)).toBe("token-2");
  });

  test("a failed mint fails every waiting call and is not remembered: the next call mints again", async () => {
    const cache = new TokenCache();
    const { mint, start } = manualMint();
    const calls = [cache.get("a", start), cache.get("a", start)];
    mint.fail(new Error("refused"));
    for (const call of calls) await expect(call).rejects.toThrow("refused");
    await Promise.allSettled(calls);
    const again = cache.get("a", start);
    mint.release();
    expect(await again).toBe("token-2");
  });
});
