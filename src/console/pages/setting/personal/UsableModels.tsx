import { Trans } from "@lingui/react/macro";
import { useState } from "react";
import { useApiData } from "../../../use-api-data";
import { SettingCard } from "./SettingCard";

const SHOWN = 10;

/** The models the user may call: the first 10, then 'more N models'. */
export function UsableModels() {
  const models = useApiData<string[]>("/api/user/models");
  const [all, setAll] = useState(false);
  const list = models.data ?? [];
  const hidden = list.length - SHOWN;
  return (
    <SettingCard title={<Trans>Usable models</Trans>} testId="usable-models">
      <div className="flex flex-wrap gap-1">
        {(all ? list : list.slice(0, SHOWN)).map((m) => (
          <span key={m} className="badge badge-outline">
            {m}
          </span>
        ))}
        {models.loaded && list.length === 0 && (
          <span className="opacity-60">
            <Trans>No model is available yet</Trans>
          </span>
        )}
        {!all && hidden > 0 && (
          <button type="button" className="btn btn-xs btn-link" data-testid="more-models" onClick={() => setAll(true)}>
            <Trans>more {hidden} models</Trans>
          </button>
        )}
      </div>
    </SettingCard>
  );
}
