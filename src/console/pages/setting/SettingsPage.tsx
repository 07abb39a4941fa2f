import { useLingui } from "@lingui/react/macro";
import { useSignals } from "@preact/signals-react/runtime";
import { Link, useSearch } from "wouter";
import { SectionIndex } from "../../components/SectionIndex";
import { isRoot } from "../../state/user";
import { OperationTab } from "./operation/OperationTab";
import { OtherTab } from "./other/OtherTab";
import { PersonalTab } from "./personal/PersonalTab";
import { SystemTab } from "./system/SystemTab";

type TabId = "personal" | "operation" | "system" | "other";
const ROOT_TABS: TabId[] = ["operation", "system", "other"];
const SCREENS: Record<TabId, () => React.JSX.Element> = {
  personal: PersonalTab,
  operation: OperationTab,
  system: SystemTab,
  other: OtherTab,
};

/** /setting?tab=…: personal for everyone; operation, system and other for the super administrator. */
export default function SettingsPage() {
  useSignals();
  const { t } = useLingui();
  const requested = new URLSearchParams(useSearch()).get("tab") as TabId | null;
  const tabs: TabId[] = isRoot.value ? ["personal", ...ROOT_TABS] : ["personal"];
  const active = requested && tabs.includes(requested) ? requested : "personal";
  const names: Record<TabId, string> = {
    personal: t`Personal`,
    operation: t`Operation`,
    system: t`System`,
    other: t`Other`,
  };
  const Screen = SCREENS[active];
  return (
    <div className="flex flex-col gap-4">
      <div role="tablist" className="tabs tabs-box w-fit max-tablet:w-full" data-testid="setting-tabs">
        {tabs.map((tab) => (
          <Link
            key={tab}
            href={`/setting?tab=${tab}`}
            role="tab"
            data-tab={tab}
            className={`tab ${tab === active ? "tab-active" : ""}`}
          >
            {names[tab]}
          </Link>
        ))}
      </div>
      {active === "personal" ? (
        <Screen />
      ) : (
        <SectionIndex key={active}>
          <Screen />
        </SectionIndex>
      )}
    </div>
  );
}
