import { useLingui } from "@lingui/react/macro";
import { LogType } from "../../../shared/constants";

/** The log type selector's choices (0: all) and each type's badge colour. */
export function useLogTypes() {
  const { t } = useLingui();
  const types: { value: number; label: string; badge: string }[] = [
    { value: LogType.Unknown, label: t`All types`, badge: "" },
    { value: LogType.TopUp, label: t`Top-up`, badge: "badge-info" },
    { value: LogType.Consume, label: t`Consumption`, badge: "badge-success" },
    { value: LogType.Manage, label: t`Management`, badge: "badge-warning" },
    { value: LogType.System, label: t`System event`, badge: "badge-secondary" },
    { value: LogType.Error, label: t`Error`, badge: "badge-error" },
    { value: LogType.Refund, label: t`Refund`, badge: "badge-accent" },
  ];
  const of = (type: number) =>
    types.find((entry) => entry.value === type) ?? { value: type, label: t`Unknown`, badge: "badge-ghost" };
  return { types, of };
}
