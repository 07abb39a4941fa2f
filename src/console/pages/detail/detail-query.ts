import { query } from "../../api";
import { platform } from "../../state/status";
import { fromLocalInput, nowSeconds, toLocalInput } from "../log/time";
import { DEFAULT_SPAN, GRANULARITIES, type Granularity } from "./buckets";

export type DetailFilter = Record<"start" | "end" | "username", string>;

/** The site's default granularity (data_export_default_time), hour when unset. */
export function defaultGranularity(): Granularity {
  const chosen = (platform.value as { data_export_default_time?: string } | null)?.data_export_default_time;
  return GRANULARITIES.find((g) => g === chosen) ?? "hour";
}

/** From one default span back (a day by the hour, a week by the day, 30 days by the week) to now. */
export const initialDetailFilter = (granularity: Granularity) => (): DetailFilter => ({
  start: toLocalInput(nowSeconds() - DEFAULT_SPAN[granularity]),
  end: toLocalInput(nowSeconds()),
  username: "",
});

const range = (filter: DetailFilter) => ({
  start_timestamp: fromLocalInput(filter.start),
  end_timestamp: fromLocalInput(filter.end),
});

/** Consumption per model and hour: everyone's (or one user's) for admins, one's own otherwise. */
export const modelDataUrl = (filter: DetailFilter, admin: boolean) =>
  admin
    ? `/api/data/${query({ ...range(filter), username: filter.username.trim() })}`
    : `/api/data/self${query(range(filter))}`;

/** Consumption per user and hour (admins). */
export const userDataUrl = (filter: DetailFilter) => `/api/data/users${query(range(filter))}`;
