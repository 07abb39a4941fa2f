import { useLingui } from "@lingui/react/macro";
import { CHANNEL_TYPES } from "../../../shared/channel-types";
import { useApiData } from "../../use-api-data";

/**
 * The types the form offers: those the server's providers serve (GET /api/channel/types), plus the channel's
 * own type when it has none any more, marked so (saving then asks for another type).
 */
export function useTypeOptions(current: number) {
  const { t } = useLingui();
  const served = useApiData<number[]>("/api/channel/types").data ?? [];
  return [...CHANNEL_TYPES.values()]
    .filter((type) => served.includes(type.id) || type.id === current)
    .map((type) => ({
      value: String(type.id),
      label: served.includes(type.id) ? type.name : t`${type.name} (no provider)`,
    }));
}
