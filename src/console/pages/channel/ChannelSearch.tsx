import { useLingui } from "@lingui/react/macro";
import { SearchForm } from "../../components/table/SearchForm";
import { useApiData } from "../../use-api-data";
import type { ChannelFilter } from "./channel-list";

/** Keyword (id, name, key), model and group; the list follows on Search. */
export function ChannelSearch({ onSearch }: { onSearch: (filter: ChannelFilter) => void }) {
  const { t } = useLingui();
  const groups = useApiData<string[]>("/api/group/");
  const fields = [
    { name: "keyword" as const, placeholder: t`Search by ID, name or key` },
    { name: "model" as const, placeholder: t`Model` },
    { name: "group" as const, placeholder: t`All groups`, options: groups.data ?? [] },
  ];
  return <SearchForm fields={fields} onSearch={onSearch} testId="channel-search" />;
}
