import { afterAll, beforeAll, expect } from "bun:test";
import type { DialectName } from "../../src/db/connect";
import { findChannel } from "../../src/db/queries/channels";
import type { ServiceContext } from "../../src/service/context";
import { Role } from "../../src/shared/constants";
import { expectFailure, type ApiClient, type Reply } from "./client";
import { countRows } from "./rows";
import { startTestServer, type TestServer } from "./server";

let serial = 0;

/** A valid channel body; each call's key is distinct. */
export const channelBody = (fields: Record<string, unknown> = {}) => ({
  type: 1,
  name: "main",
  key: `sk-secret-${++serial}-${Math.random().toString(36).slice(2, 10)}`,
  models: "gpt-4o,gpt-4o-mini",
  group: "default,vip",
  ...fields,
});

/** The stored row as the service reads it, its key decrypted (tests/service/secrets-at-rest.test.ts reads the raw column). */
export const channelRow = (ctx: ServiceContext, id: number) => findChannel(ctx.db, id);

/** Creates a channel as root and answers its id. */
export async function createChannel(s: TestServer, fields: Record<string, unknown> = {}): Promise<number> {
  const reply = await s.root.post("/api/channel/", channelBody(fields));
  if (!reply.body.success) throw new Error(`create channel: ${reply.body.message}`);
  return reply.body.data.id;
}

/** A test server of the dialect for the enclosing describe, handed over with a signed-in admin once it runs. */
export function useAdminServer(
  dialect: DialectName,
  started: (server: { s: TestServer; admin: ApiClient }) => void,
): void {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(dialect);
    started({ s, admin: await newAdmin(s) });
  });
  afterAll(() => s.stop());
}

export async function newAdmin(s: TestServer): Promise<ApiClient> {
  const admin = await s.newUser();
  const promoted = await s.root.post("/api/user/manage", { id: admin.userId, action: "promote" });
  expect(promoted.body.data.role).toBe(Role.Admin);
  return admin;
}

const split = (list: string) =>
  list
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
const byKey = (a: { channel_id: number; group: string; model: string }, b: typeof a) =>
  a.channel_id - b.channel_id || a.group.localeCompare(b.group) || a.model.localeCompare(b.model);

/** The abilities table holds exactly one row per group × model of every channel, mirroring its status, priority, weight and tag. */
export async function expectAbilitiesInStep(ctx: ServiceContext): Promise<void> {
  const channels = await ctx.db.k.selectFrom("channels").selectAll().execute();
  const expected = channels.flatMap((c) =>
    split(c.group).flatMap((group) =>
      split(c.models).map((model) => ({
        group,
        model,
        channel_id: c.id,
        enabled: c.status === 1 ? 1 : 0,
        priority: c.priority,
        weight: c.weight,
        tag: c.tag,
      })),
    ),
  );
  const actual = await ctx.db.k.selectFrom("abilities").selectAll().execute();
  expect(actual.map((a) => ({ ...a, channel_id: Number(a.channel_id) })).sort(byKey)).toEqual(expected.sort(byKey));
}

/** What a refused call must leave alone: every channel and ability row. */
export async function snapshotChannels(ctx: ServiceContext) {
  return {
    channels: await ctx.db.k.selectFrom("channels").selectAll().orderBy("id").execute(),
    abilities: await countRows(ctx, "abilities"),
  };
}

/** A refusal of the management API (HTTP 200, success false) that changed no channel and no ability. */
export async function expectRefusedUnchanged(
  ctx: ServiceContext,
  call: () => Promise<Reply>,
  message: string,
): Promise<void> {
  const before = await snapshotChannels(ctx);
  expectFailure(await call(), 200, message);
  expect(await snapshotChannels(ctx)).toEqual(before);
}
