import type { RedemptionRow } from "../../db/schema";

/** A code as administrators see it, key included (they hand codes out). */
export interface RedemptionView {
  id: number;
  user_id: number;
  key: string;
  status: number;
  name: string;
  quota: number;
  created_time: number;
  redeemed_time: number;
  used_user_id: number;
  expired_time: number;
}

export const toRedemptionView = (r: RedemptionRow): RedemptionView => ({
  id: r.id,
  user_id: r.user_id,
  key: r.key,
  status: r.status,
  name: r.name,
  quota: r.quota,
  created_time: r.created_time,
  redeemed_time: r.redeemed_time,
  used_user_id: r.used_user_id,
  expired_time: r.expired_time,
});

export interface RedemptionPage {
  items: RedemptionView[];
  page: number;
  page_size: number;
  total: number;
}
