/** One model of GET /api/pricing (spec §3 'Pricing model'). quota_type 0: per token (ratios); 1: per call (model_price USD). */
export interface PricingRow {
  model_name: string;
  quota_type: 0 | 1;
  model_ratio: number;
  completion_ratio: number;
  model_price: number;
  enable_groups: string[];
}

/** GET /api/pricing, for the viewer asking (a visitor sees what a new account would). */
export interface Pricing {
  data: PricingRow[];
  /** Group → the ratio this viewer pays through it (GroupRatio, or their GroupGroupRatio override). */
  group_ratio: Record<string, number>;
  /** The groups this viewer may use, with description and the ratio they pay. */
  usable_group: Record<string, { desc: string; ratio: number }>;
}
