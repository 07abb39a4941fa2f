import { computed } from "@preact/signals-react";
import { formatMoney, formatQuota, quotaDisplayOf } from "../../shared/quota-format";
import { api } from "../api";
import { persistedSignal } from "./persisted";

/** The fields of GET /api/status the console reads. */
export interface PlatformStatus {
  version: string;
  start_time: number;
  setup: boolean;
  system_name: string;
  logo: string;
  footer_html: string;
  server_address: string;
  quota_per_unit: number;
  display_in_currency: boolean;
  quota_display_currency: string;
  usd_exchange_rate: number;
  enable_drawing: boolean;
  enable_task: boolean;
  enable_data_export: boolean;
  default_collapse_sidebar: boolean;
  register_enabled: boolean;
  password_login_enabled: boolean;
  password_register_enabled: boolean;
  email_verification: boolean;
  turnstile_check: boolean;
  turnstile_site_key: string;
  github_oauth: boolean;
  github_client_id: string;
  linuxdo_oauth: boolean;
  linuxdo_client_id: string;
  oidc_enabled: boolean;
  wechat_login: boolean;
  wechat_qrcode: string;
  telegram_oauth: boolean;
  telegram_bot_name: string;
}

export const platform = persistedSignal<PlatformStatus | null>("status", null);

export const systemName = computed(() => platform.value?.system_name || "Tollgate");
export const logoUrl = computed(() => platform.value?.logo || "/logo.png");

/** Loaded once per page load; the stored copy renders meanwhile. */
export async function loadPlatformStatus(): Promise<void> {
  const reply = await api.get<PlatformStatus>("/api/status");
  if (reply.ok) platform.value = reply.data;
}

/** The site's quota display (spec §9; issue #22 'Money'): USD, CNY at the exchange rate, or k/M/B units. */
export const quotaDisplay = computed(() => quotaDisplayOf(platform.value));

/** Quota as the site shows it: never `$0.00` for a non-zero amount, the sign before the symbol. */
export const showQuota = (quota: number): string => formatQuota(quota, quotaDisplay.value);

/** A US-dollar amount (a price, a balance) in the site's currency. */
export const showMoney = (usd: number): string => formatMoney(usd, quotaDisplay.value);
