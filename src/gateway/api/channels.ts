import { manageKeys } from "../../service/channels/multi-key";
import { Elysia } from "elysia";
import type { UserRow } from "../../service/users/directory";
import { updateAllBalances, updateChannelBalance } from "../../service/channels/balance";
import { copyChannel } from "../../service/channels/copy";
import { createChannels } from "../../service/channels/create";
import { deleteChannel, deleteChannelList, deleteDisabledChannels } from "../../service/channels/delete";
import { fetchChannelModels, fetchModelsWith } from "../../service/channels/fetch-models";
import { fixAbilities } from "../../service/channels/fix";
import { revealChannelKey } from "../../service/channels/key";
import { getChannel, listChannels } from "../../service/channels/list";
import { knownModels, modelsByType } from "../../service/channels/models";
import { editTag, setTagStatus, tagChannels } from "../../service/channels/tags";
import { offeredChannelTypes } from "../../service/channels/served-types";
import { updateChannel } from "../../service/channels/update";
import { detectUpstreamClients } from "../../service/channels/upstream-clients";
import type { ServiceContext } from "../../service/context";
import type { Input } from "../../service/input";
import { Role } from "../../shared/constants";
import { ok } from "../http/envelope";
import { providerUpstream } from "../relay/channel-upstream";
import { authenticate } from "./auth";
import { limitPerAddress } from "./rate-limit";
import { bodyOf, pagingOf } from "./request";

type Query = Record<string, string | undefined>;

const flag = (value: string | undefined) => value === "true" || value === "1";

const listQueryOf = (query: Query) => ({
  keyword: query.keyword,
  group: query.group,
  model: query.model,
  idSort: flag(query.id_sort),
  tagMode: flag(query.tag_mode),
  ...pagingOf(query),
});

/** Channel management (admin; revealing a key is root's). */
export const channelRoutes = (ctx: ServiceContext, upstream = providerUpstream) => {
  const admin = async (request: Request) => (await authenticate(ctx, request, Role.Admin)).user;
  /** The caller is checked before the body is read. */
  const withBody =
    (work: (actor: UserRow, body: Input) => Promise<unknown>, message = "") =>
    async ({ request }: { request: Request }) => {
      const actor = await admin(request);
      return ok(await work(actor, await bodyOf(ctx, request)), message);
    };
  const withId =
    (work: (actor: UserRow, id: string) => Promise<unknown>) =>
    async ({ request, params }: { request: Request; params: { id: string } }) =>
      ok(await work(await admin(request), params.id));
  const list = async ({ request, query }: { request: Request; query: Query }) =>
    ok(await listChannels(ctx, await admin(request), listQueryOf(query)));
  return new Elysia()
    .get("/api/channel/", list)
    .get("/api/channel/search", list)
    .get("/api/channel/models", async ({ request }) => ok(await knownModels(ctx, await admin(request))))
    .get("/api/channel/types", async ({ request }) => ok(offeredChannelTypes(await admin(request))))
    .get("/api/models", async ({ request }) => ok(await modelsByType(ctx, await admin(request))))
    .get("/api/channel/update_balance", async ({ request }) =>
      ok(await updateAllBalances(ctx, upstream, await admin(request))),
    )
    .get(
      "/api/channel/update_balance/:id",
      withId((actor, id) => updateChannelBalance(ctx, upstream, actor, id)),
    )
    .get(
      "/api/channel/test_upstream/:id",
      withId((actor, id) => detectUpstreamClients(ctx, actor, id)),
    )
    .get(
      "/api/channel/fetch_models/:id",
      withId((actor, id) => fetchChannelModels(ctx, upstream, actor, id)),
    )
    .post(
      "/api/channel/fetch_models",
      withBody((actor, body) => fetchModelsWith(ctx, upstream, actor, body)),
    )
    .get(
      "/api/channel/:id",
      withId((actor, id) => getChannel(ctx, actor, id)),
    )
    .post(
      "/api/channel/",
      withBody((actor, body) => createChannels(ctx, actor, body), "channel created"),
    )
    .put(
      "/api/channel/",
      withBody((actor, body) => updateChannel(ctx, actor, body), "channel updated"),
    )
    .delete("/api/channel/disabled", async ({ request }) => ok(await deleteDisabledChannels(ctx, await admin(request))))
    .delete(
      "/api/channel/:id",
      withId((actor, id) => deleteChannel(ctx, actor, id)),
    )
    .post(
      "/api/channel/batch",
      withBody((actor, body) => deleteChannelList(ctx, actor, body.ids)),
    )
    .post("/api/channel/fix", async ({ request }) => ok(await fixAbilities(ctx, await admin(request))))
    .post(
      "/api/channel/multi_key/manage",
      withBody((actor, body) => manageKeys(ctx, actor, body)),
    )
    .post(
      "/api/channel/tag/enabled",
      withBody((actor, body) => setTagStatus(ctx, actor, body, true)),
    )
    .post(
      "/api/channel/tag/disabled",
      withBody((actor, body) => setTagStatus(ctx, actor, body, false)),
    )
    .put(
      "/api/channel/tag",
      withBody((actor, body) => editTag(ctx, actor, body)),
    )
    .post(
      "/api/channel/batch/tag",
      withBody((actor, body) => tagChannels(ctx, actor, body)),
    )
    .post("/api/channel/copy/:id", async ({ request, params, query }) => {
      const options = { suffix: query.suffix, resetBalance: !["false", "0"].includes(query.reset_balance ?? "") };
      return ok(await copyChannel(ctx, await admin(request), params.id, options), "channel copied");
    })
    .post("/api/channel/:id/key", async ({ request, params, server }) => {
      await limitPerAddress(ctx, "keyReveal", request, server);
      const { user } = await authenticate(ctx, request, Role.Root);
      return ok(await revealChannelKey(ctx, user, params.id));
    });
};
