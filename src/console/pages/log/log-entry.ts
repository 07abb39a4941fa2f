import { query } from "../../api";
import { defaultRange, fromLocalInput, nowSeconds } from "./time";

/** The parts of `other` the screen reads; every one may be missing. */
export interface LogOther {
  frt?: number;
  model_ratio?: number;
  completion_ratio?: number;
  cache_ratio?: number;
  cache_tokens?: number;
  model_price?: number;
  group_ratio?: number;
  user_group_ratio?: number;
  upstream_model_name?: string;
  is_model_mapped?: boolean;
  usage_source?: string;
  admin_info?: { use_channel?: number[] };
  [key: string]: unknown;
}

export function parseOther(text: string): LogOther {
  try {
    const parsed: unknown = JSON.parse(text || "{}");
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as LogOther) : {};
  } catch {
    return {};
  }
}

/** The filter form's values; channel and username are an admin's only. */
export type LogFilter = Record<
  "type" | "start" | "end" | "token_name" | "model_name" | "group" | "channel" | "username",
  string
>;

/** The list shows the last 3 days, up to an hour ahead (spec §9). */
export const LOG_DAYS = 3;

export const initialLogFilter = (): LogFilter => ({
  type: "0",
  ...defaultRange(nowSeconds() - LOG_DAYS * 86_400),
  token_name: "",
  model_name: "",
  group: "",
  channel: "",
  username: "",
});

/** The query of the list, stat and export calls for a filter. */
function logParams(filter: LogFilter, admin: boolean): Record<string, string | number | undefined> {
  const params: Record<string, string | number | undefined> = {
    type: filter.type === "0" ? undefined : filter.type,
    start_timestamp: fromLocalInput(filter.start),
    end_timestamp: fromLocalInput(filter.end),
    token_name: filter.token_name.trim(),
    model_name: filter.model_name.trim(),
    group: filter.group.trim(),
  };
  if (admin) Object.assign(params, { channel: filter.channel.trim(), username: filter.username.trim() });
  return params;
}

/** Admins read everyone's logs at /api/log/…, others their own at /api/log/self/… */
const base = (admin: boolean) => (admin ? "/api/log" : "/api/log/self");

export const logListUrl = (filter: LogFilter, admin: boolean, p: number, size: number) =>
  `${admin ? "/api/log/" : "/api/log/self"}${query({ p, page_size: size, ...logParams(filter, admin) })}`;
export const logStatUrl = (filter: LogFilter, admin: boolean) =>
  `${base(admin)}/stat${query(logParams(filter, admin))}`;
export const logExportUrl = (filter: LogFilter, admin: boolean) =>
  `${base(admin)}/export${query(logParams(filter, admin))}`;
