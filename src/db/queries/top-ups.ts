import type { Insertable } from "kysely";
import type { Exec } from "../exec";
import { affected, insertReturningId } from "../exec";
import type { TopUpRow, TopUpsTable } from "../schema";

export const insertTopUp = (db: Exec, row: Insertable<TopUpsTable>): Promise<number> =>
  insertReturningId(db, "top_ups", row);

export function findTopUpByTradeNo(db: Exec, tradeNo: string): Promise<TopUpRow | undefined> {
  return db.k.selectFrom("top_ups").selectAll().where("trade_no", "=", tradeNo).executeTakeFirst();
}

/** Moves an order from status `from` to `to` only if it still is in `from`; answers whether it did. */
export async function moveTopUpStatus(
  db: Exec,
  tradeNo: string,
  from: string,
  to: string,
  at: number,
): Promise<boolean> {
  const result = await db.k
    .updateTable("top_ups")
    .set({ status: to, complete_time: at })
    .where("trade_no", "=", tradeNo)
    .where("status", "=", from)
    .executeTakeFirst();
  return affected(result) === 1;
}
