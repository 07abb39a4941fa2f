import type { SourceRow } from "../../db/foreign/source";
import type { TokenRow } from "../../db/schema";
import type { ServiceContext } from "../context";
import { allowIpsOf } from "../tokens/allow-ips";
import { hashKey, rawKeyOf, storedFormsOf } from "../tokens/key";
import { IdAllocator, item, matchedItem, type PlanItem } from "./plan";
import type { IdMap } from "./users";
import { num, seconds, text } from "./values";

/** Fields carried as they are; the key is stored the Tollgate way (hash to find it, sealed copy, mask). */
function carried(row: SourceRow, userId: number) {
  // Older one-api kept allowed models in `models` and allowed addresses in `subnet`.
  const models = text(row, "model_limits") || text(row, "models");
  return {
    user_id: userId,
    status: num(row, "status", 1),
    name: text(row, "name"),
    created_time: num(row, "created_time"),
    accessed_time: num(row, "accessed_time"),
    expired_time: num(row, "expired_time", -1),
    remain_quota: num(row, "remain_quota"),
    unlimited_quota: num(row, "unlimited_quota"),
    model_limits_enabled: num(row, "model_limits_enabled", models ? 1 : 0),
    model_limits: models,
    allow_ips: allowIpsOf(text(row, "allow_ips") || text(row, "subnet")),
    used_quota: num(row, "used_quota"),
    group: text(row, "group"),
    cross_group_retry: num(row, "cross_group_retry"),
    deleted_at: seconds(row, "deleted_at"),
  };
}

/** What Tollgate changes as the key is used: carried when the token is created, then Tollgate's own. */
const SPENT_HERE = ["remain_quota", "used_quota", "accessed_time", "status"] as const;

/**
 * Tokens matched by their key: the old gateway stored it without "sk-", clients send "sk-" + it, and Tollgate
 * finds a key by the keyed hash of those same 48 characters, so an issued key keeps working unchanged.
 */
export function planTokens(ctx: ServiceContext, source: SourceRow[], target: TokenRow[], users: IdMap): PlanItem[] {
  const byHash = new Map(target.map((t) => [t.key_hash, t]));
  const ids = new IdAllocator(
    target.map((t) => t.id),
    source.map((r) => num(r, "id")),
  );
  /** Hashes of the keys planned so far: a key the source holds twice arrives once. */
  const seen = new Map<string, number>();
  return source.map((row) => {
    const sourceId = num(row, "id");
    const name = text(row, "name") || `#${sourceId}`;
    const raw = rawKeyOf(text(row, "key"));
    if (!raw) return item("token", name, "skip", { sourceId, reason: "its key is not 48 letters and digits" });
    const userId = users.get(num(row, "user_id"));
    if (userId === undefined) return item("token", name, "skip", { sourceId, reason: "its user was not imported" });
    const hash = hashKey(ctx, raw);
    const twin = seen.get(hash);
    if (twin !== undefined) return item("token", name, "skip", { sourceId, reason: `same key as token #${twin}` });
    seen.set(hash, sourceId);
    const existing = byHash.get(hash);
    let fields: ReturnType<typeof carried>;
    try {
      fields = carried(row, userId);
    } catch (error) {
      return item("token", name, "skip", { sourceId, reason: (error as Error).message });
    }
    const desired = existing ? fields : { ...fields, ...storedFormsOf(ctx, raw) };
    return matchedItem(
      "token",
      name,
      sourceId,
      desired,
      { id: existing?.id ?? ids.take(sourceId), row: existing },
      SPENT_HERE,
    );
  });
}
