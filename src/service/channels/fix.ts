import { deleteAllAbilities, insertAbilities } from "../../db/queries/abilities";
import { allChannels } from "../../db/queries/channels";
import { inTransaction } from "../../db/exec";
import type { UserRow } from "../../db/schema";
import type { ServiceContext } from "../context";
import { requireAdmin } from "../users/admin-access";
import { abilitiesOf } from "./abilities";

/** Repairs consistency: every ability row is dropped and rebuilt from the channels. */
export async function fixAbilities(
  ctx: ServiceContext,
  actor: UserRow,
): Promise<{ channels: number; abilities: number }> {
  requireAdmin(actor);
  const counts = await inTransaction(ctx.db, async (tx) => {
    await deleteAllAbilities(tx);
    const channels = await allChannels(tx);
    const rows = channels.flatMap(abilitiesOf);
    await insertAbilities(tx, rows);
    return { channels: channels.length, abilities: rows.length };
  });
  ctx.changes.emit("channels");
  return counts;
}
