/** Where a reply that can be fetched again by id (a Responses `resp_…`) was created. */
export interface StoredReply {
  channelId: number;
  /** The user whose call created it: nobody else reaches it through the gateway. */
  userId: number;
  /** The upstream model (an Azure address names it). */
  model: string;
}

/** Replies remembered at the most; the oldest is forgotten first. */
const LIMIT = 100_000;

/**
 * The ids of replies passed through from an upstream that stores them, in memory: a restart forgets them (the
 * calls by id then answer 404, as for a reply the gateway translated, which no upstream stored).
 */
const replies = new Map<string, StoredReply>();

export function rememberReply(id: string, where: StoredReply): void {
  replies.delete(id);
  replies.set(id, where);
  if (replies.size > LIMIT) replies.delete(replies.keys().next().value!);
}

export const storedReply = (id: string): StoredReply | undefined => replies.get(id);

export const forgetReply = (id: string): void => {
  replies.delete(id);
};
