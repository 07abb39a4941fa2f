import { query } from "../../api";

/** A redemption code as administrators see it, key included. */
export interface Redemption {
  id: number;
  name: string;
  key: string;
  status: number;
  quota: number;
  created_time: number;
  redeemed_time: number;
  /** 0 while nobody has redeemed it. */
  used_user_id: number;
}

export const RedemptionStatus = { Unused: 1, Disabled: 2, Used: 3 } as const;
/** Spec §5 and §9. */
export const NAME_MAX = 20;
export const BATCH_MAX = 100;
export const DEFAULT_QUOTA = 100000;

export function redemptionListUrl(keyword: string, page: number, size: number): string {
  return `/api/redemption/${keyword ? "search" : ""}${query({ keyword, p: page, page_size: size })}`;
}
