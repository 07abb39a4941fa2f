import { loadPlatformStatus } from "../../../state/status";
import { OptionCard } from "../options/OptionCard";
import { useOptions } from "../options/use-options";
import { useSystemCards } from "./system-cards";

export function SystemTab() {
  const options = useOptions();
  const cards = useSystemCards(options.values?.ServerAddress ?? "");
  if (!options.values) return <span className="loading loading-spinner" />;
  return (
    <div className="flex flex-col gap-4" data-testid="system-tab">
      {cards.map((card) => (
        <OptionCard
          key={card.id}
          testId={`card-${card.id}`}
          title={card.title}
          fields={card.fields}
          options={options}
          check={card.check}
          onSaved={loadPlatformStatus}
        />
      ))}
    </div>
  );
}
