import { api, query } from "../../api";

export const TokenStatus = { Enabled: 1, Disabled: 2, Expired: 3, Exhausted: 4 } as const;

export interface TokenFilter {
  /** Part of the name. */
  keyword: string;
  /** A whole key. */
  token: string;
}

export function tokenListUrl(filter: TokenFilter, page: number, size: number): string {
  const searching = Boolean(filter.keyword || filter.token);
  return `/api/token/${searching ? "search" : ""}${query({ ...filter, p: page, page_size: size })}`;
}

/** The whole key of one of the caller's tokens. */
export async function revealKey(id: number): Promise<string | undefined> {
  const reply = await api.post<{ key: string }>(`/api/token/${id}/key`);
  return reply.ok ? reply.data.key : undefined;
}

/** Whole keys of several tokens, in the order of `ids`. */
export async function revealKeys(ids: number[]): Promise<string[] | undefined> {
  const reply = await api.post<{ keys: Record<string, string> }>("/api/token/batch/keys", { ids });
  return reply.ok
    ? ids.map((id) => reply.data.keys[String(id)]).filter((key): key is string => Boolean(key))
    : undefined;
}
