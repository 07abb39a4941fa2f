import { useLingui } from "@lingui/react/macro";
import { OptionCard } from "../options/OptionCard";
import { useOptions } from "../options/use-options";
import { LogCleanup } from "./LogCleanup";
import { useOperationCards } from "./operation-cards";
import { ModelPriceEditor } from "./prices/ModelPriceEditor";

export function OperationTab() {
  const { t } = useLingui();
  const options = useOptions();
  const cards = useOperationCards();
  if (!options.values) return <span className="loading loading-spinner" />;
  return (
    <div className="flex flex-col gap-4" data-testid="operation-tab">
      {cards.map((card) => (
        <OptionCard
          key={card.id}
          testId={`card-${card.id}`}
          title={card.title}
          fields={card.fields}
          options={options}
        />
      ))}
      <OptionCard
        testId="card-logs"
        title={t`Logs`}
        options={options}
        fields={[
          { key: "LogConsumeEnabled", kind: "switch", label: t`Record consumption logs` },
          { key: "LogRetentionDays", kind: "number", min: 0, label: t`Keep logs for (days, 0: forever)` },
        ]}
      >
        <LogCleanup />
      </OptionCard>
      <ModelPriceEditor options={options} />
    </div>
  );
}
