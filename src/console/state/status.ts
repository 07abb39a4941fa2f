import { computed } from "@preact/signals-react";
import { QUOTA_PER_UNIT } from "../../shared/constants";
import { formatQuota } from "../../shared/quota-format";
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

/** Quota as the site shows it (spec §9): currency when display_in_currency, else k/M/B. */
export function showQuota(quota: number): string {
  const status = platform.value;
  return formatQuota(quota, {
    inCurrency: status?.display_in_currency ?? true,
    quotaPerUnit: status?.quota_per_unit || QUOTA_PER_UNIT,
  });
}
