import { useLingui } from "@lingui/react/macro";
import { loadPlatformStatus } from "../../../state/status";
import type { FieldSpec } from "../options/field-spec";
import { OptionCard } from "../options/OptionCard";
import { useOptions } from "../options/use-options";

interface ContentCard {
  field: FieldSpec;
  saved: string;
}

/** The site's texts, each saved on its own with its own confirmation. */
function useContentCards(): ContentCard[] {
  const { t } = useLingui();
  const markdown = t`Markdown; raw HTML is shown as text. An https:// address shows that page instead.`;
  return [
    {
      field: { key: "Notice", kind: "textarea", label: t`Notice`, hint: t`Markdown`, rows: 4 },
      saved: t`Notice updated`,
    },
    { field: { key: "SystemName", kind: "text", label: t`System name` }, saved: t`System name updated` },
    {
      field: { key: "Logo", kind: "text", label: t`Logo address`, placeholder: "https://example.com/logo.png" },
      saved: t`Logo updated`,
    },
    {
      field: { key: "HomePageContent", kind: "textarea", label: t`Home page content`, hint: markdown, rows: 6 },
      saved: t`Home page content updated`,
    },
    { field: { key: "About", kind: "textarea", label: t`About`, hint: markdown, rows: 6 }, saved: t`About updated` },
    {
      field: {
        key: "Footer",
        kind: "textarea",
        label: t`Footer`,
        hint: t`HTML; sanitized before it is shown`,
        rows: 3,
      },
      saved: t`Footer updated`,
    },
  ];
}

export function OtherTab() {
  const options = useOptions();
  const cards = useContentCards();
  if (!options.values) return <span className="loading loading-spinner" />;
  return (
    <div className="flex flex-col gap-4" data-testid="other-tab">
      {cards.map(({ field, saved }) => (
        <OptionCard
          key={field.key}
          testId={`card-${field.key}`}
          title={field.label}
          fields={[field]}
          options={options}
          savedMessage={saved}
          onSaved={loadPlatformStatus}
        />
      ))}
    </div>
  );
}
