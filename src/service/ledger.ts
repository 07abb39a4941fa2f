import type { Exec } from "../db/exec";
import { insertLog } from "../db/queries/logs";
import type { LogType } from "../shared/constants";
import { nowSeconds } from "./time";

type LedgerType = (typeof LogType)[keyof typeof LogType];

/** Every balance change leaves a log row saying why; call it in the transaction that changes the balance. */
export async function recordBalanceChange(
  db: Exec,
  entry: { userId: number; username: string; type: LedgerType; quota: number; content: string },
): Promise<void> {
  await insertLog(db, {
    user_id: entry.userId,
    username: entry.username,
    created_at: nowSeconds(),
    type: entry.type,
    quota: entry.quota,
    content: entry.content,
  });
}
