import type { UserRow } from "../service/users/directory";
import { listChannels } from "../service/channels/list";
import type { ChannelView } from "../service/channels/view";
import type { ServiceContext } from "../service/context";
import { notFound, refuse } from "../service/errors";
import { listTokens } from "../service/tokens/list";
import type { TokenView } from "../service/tokens/view";
import { manageableUser } from "../service/users/admin-access";
import { listUsers } from "../service/users/admin";
import type { UserView } from "../service/users/dto";

interface Page<T> {
  items: T[];
  total: number;
}

const PAGE = 100;

/** Every item of a paged service listing, fetched a page at a time. */
export async function allPages<T>(fetch: (page: number, pageSize: number) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page++) {
    const chunk = await fetch(page, PAGE);
    items.push(...chunk.items);
    if (chunk.items.length < PAGE || items.length >= chunk.total) return items;
  }
}

const isId = (ref: string) => /^\d+$/.test(ref.trim());

/** The one item named `ref`; none is "not found", several ask for the id. */
function single<T extends { id: number }>(matches: T[], what: string, ref: string): number {
  if (matches.length === 0) notFound(what);
  if (matches.length > 1)
    refuse(`${matches.length} ${what}s are named "${ref}": use the id (${matches.map((m) => m.id).join(", ")})`);
  return matches[0]!.id;
}

export const usersNamed = async (ctx: ServiceContext, actor: UserRow, username: string): Promise<UserView[]> =>
  (await allPages((page, pageSize) => listUsers(ctx, actor, { keyword: username, page, pageSize }))).filter(
    (user) => user.username === username,
  );

/** A user's id from an id or a username (all digits means an id). */
export async function userIdOf(ctx: ServiceContext, actor: UserRow, ref: string): Promise<number> {
  return isId(ref) ? Number(ref) : single(await usersNamed(ctx, actor, ref), "user", ref);
}

/** A live user the actor may manage, as the token services want their owner. */
export async function ownerOf(ctx: ServiceContext, actor: UserRow, ref: string): Promise<UserRow> {
  return manageableUser(ctx, actor, await userIdOf(ctx, actor, ref));
}

/** Every channel (matching `keyword`), newest first. */
export const allChannels = (ctx: ServiceContext, actor: UserRow, keyword?: string): Promise<ChannelView[]> =>
  allPages(async (page, pageSize) => {
    const result = await listChannels(ctx, actor, { keyword, idSort: true, tagMode: false, page, pageSize });
    return result as { items: ChannelView[]; total: number };
  });

export const channelsNamed = async (ctx: ServiceContext, actor: UserRow, name: string): Promise<ChannelView[]> =>
  (await allChannels(ctx, actor, name)).filter((channel) => channel.name === name);

/** A channel's id from an id or a name. */
export async function channelIdOf(ctx: ServiceContext, actor: UserRow, ref: string): Promise<number> {
  return isId(ref) ? Number(ref) : single(await channelsNamed(ctx, actor, ref), "channel", ref);
}

export const tokensNamed = async (ctx: ServiceContext, owner: UserRow, name: string): Promise<TokenView[]> =>
  (await allPages((page, pageSize) => listTokens(ctx, owner, { keyword: name, page, pageSize }))).filter(
    (token) => token.name === name,
  );

/** One of the owner's tokens from an id or a name. */
export async function tokenIdOf(ctx: ServiceContext, owner: UserRow, ref: string): Promise<number> {
  return isId(ref) ? Number(ref) : single(await tokensNamed(ctx, owner, ref), "token", ref);
}
