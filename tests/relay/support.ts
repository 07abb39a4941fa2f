import OpenAI from "openai";
import type { DialectName } from "../../src/db/connect";
import { startFakeUpstream, type FakeUpstream } from "../support/fake-upstream";
import { startTestServer, type TestServer } from "../support/server";
import type { ApiClient } from "../support/client";

export interface RelayEnv {
  s: TestServer;
  fake: FakeUpstream;
  /** An ordinary user with a balance, signed in. */
  user: ApiClient;
  /** A token of that user (limited to `tokenQuota` unless said otherwise). */
  key: string;
  tokenId: number;
  openai(key?: string, options?: Partial<ConstructorParameters<typeof OpenAI>[0]>): OpenAI;
  addChannel(fields: Record<string, unknown>, upstream?: FakeUpstream): Promise<number>;
  setPrices(
    ratios: Record<string, number>,
    completion?: Record<string, number>,
    prices?: Record<string, number>,
  ): Promise<void>;
  newKey(fields?: Record<string, unknown>, owner?: ApiClient): Promise<{ key: string; id: number }>;
  /** Waits until every settled charge and log row is in the database. */
  flushed(): Promise<void>;
  userRow(id?: number): Promise<{ quota: number; used_quota: number; request_count: number }>;
  tokenRow(id?: number): Promise<{ remain_quota: number; used_quota: number }>;
  consumeLogs(): Promise<any[]>;
  stop(): Promise<void>;
}

export const USER_QUOTA = 10_000_000;
export const TOKEN_QUOTA = 5_000_000;

export async function startRelayEnv(dialect: DialectName, env: Record<string, string> = {}): Promise<RelayEnv> {
  const s = await startTestServer(dialect, { BILLING_FLUSH_MS: "20", ...env });
  const fake = startFakeUpstream();
  const user = await s.newUser();
  await s.root.put("/api/user/", { id: user.userId, quota: USER_QUOTA });

  const newKey = async (fields: Record<string, unknown> = {}, owner: ApiClient = user) => {
    const reply = await owner.post("/api/token/", { name: "relay", remain_quota: TOKEN_QUOTA, ...fields });
    if (!reply.body.success) throw new Error(`token: ${reply.body.message}`);
    return { key: reply.body.data.keys[0] as string, id: reply.body.data.ids[0] as number };
  };
  const first = await newKey();

  const relay: RelayEnv = {
    s,
    fake,
    user,
    key: first.key,
    tokenId: first.id,
    newKey,
    openai: (key = first.key, options = {}) =>
      new OpenAI({ apiKey: key, baseURL: `${s.url}/v1`, maxRetries: 0, ...options }),
    async addChannel(fields, upstream = fake) {
      const reply = await s.root.post("/api/channel/", {
        type: 1,
        name: `ch${Math.random().toString(36).slice(2, 7)}`,
        key: "sk-upstream-key",
        base_url: upstream.url,
        group: "default",
        ...fields,
      });
      if (!reply.body.success) throw new Error(`channel: ${reply.body.message}`);
      const row = await s.ctx.db.k.selectFrom("channels").select("id").orderBy("id", "desc").executeTakeFirstOrThrow();
      await s.ctx.relay.routes.rebuild();
      return row.id;
    },
    async setPrices(ratios, completion = {}, prices = {}) {
      const o = s.ctx.options;
      await s.root.put("/api/option/", {
        key: "ModelRatio",
        value: JSON.stringify({ ...o.json<object>("ModelRatio"), ...ratios }),
      });
      await s.root.put("/api/option/", {
        key: "CompletionRatio",
        value: JSON.stringify({ ...o.json<object>("CompletionRatio"), ...completion }),
      });
      await s.root.put("/api/option/", {
        key: "ModelPrice",
        value: JSON.stringify({ ...o.json<object>("ModelPrice"), ...prices }),
      });
    },
    flushed: () => s.ctx.relay.book.flush(),
    async userRow(id = user.userId!) {
      await s.ctx.relay.book.flush();
      return s.ctx.db.k
        .selectFrom("users")
        .select(["quota", "used_quota", "request_count"])
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
    },
    async tokenRow(id = first.id) {
      await s.ctx.relay.book.flush();
      return s.ctx.db.k
        .selectFrom("tokens")
        .select(["remain_quota", "used_quota"])
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
    },
    async consumeLogs() {
      await s.ctx.relay.book.flush();
      return s.ctx.db.k.selectFrom("logs").selectAll().where("type", "=", 2).orderBy("id").execute();
    },
    async stop() {
      await s.stop();
      await fake.stop();
    },
  };
  return relay;
}

/** quota = round(group × model × (prompt − cached − written + cached × cache + written × 1.25 + completion × completionRatio)). */
export const expectedQuota = (p: {
  prompt: number;
  completion: number;
  ratio: number;
  completionRatio?: number;
  group?: number;
  cached?: number;
  cacheRatio?: number;
  written?: number;
}) => {
  const cached = p.cached ?? 0;
  const written = p.written ?? 0;
  return Math.round(
    (p.group ?? 1) *
      p.ratio *
      (p.prompt -
        cached -
        written +
        cached * (p.cacheRatio ?? 1) +
        written * 1.25 +
        p.completion * (p.completionRatio ?? 1)),
  );
};

/** The SDK error a call fails with; fails the test when the call succeeds or throws something else. */
export async function failure(call: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  try {
    await call;
  } catch (error) {
    if (error instanceof OpenAI.APIError) return error;
    throw error;
  }
  throw new Error("the call succeeded");
}

/** A raw streamed chat call (fetch, so the test sees the bytes), with `extra` fields in the body. */
export async function postStream(
  r: RelayEnv,
  model: string,
  extra: Record<string, unknown> = {},
  signal?: AbortSignal,
) {
  return fetch(`${r.s.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${r.key}`, "content-type": "application/json" },
    body: JSON.stringify({ model, stream: true, messages: [{ role: "user", content: "hi" }], ...extra }),
    signal,
  });
}

export { waitFor } from "../support/wait-for";
