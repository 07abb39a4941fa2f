import { Fragment } from "react";
import { loadPlatformStatus } from "../../../state/status";
import { OptionCard } from "../options/OptionCard";
import { useOptions } from "../options/use-options";
import { useSystemCards } from "./system-cards";
import { TestMail } from "./TestMail";

export function SystemTab() {
  const options = useOptions();
  const cards = useSystemCards(options.values?.ServerAddress ?? "");
  if (!options.values) return <span className="loading loading-spinner" />;
  return (
    <div className="flex flex-col gap-4" data-testid="system-tab">
      {cards.map((card) => (
        <Fragment key={card.id}>
          <OptionCard
            testId={`card-${card.id}`}
            title={card.title}
            fields={card.fields}
            options={options}
            check={card.check}
            onSaved={loadPlatformStatus}
          />
          {card.id === "smtp" && <TestMail />}
        </Fragment>
      ))}
    </div>
  );
}
